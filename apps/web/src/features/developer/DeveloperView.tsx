import {
  API_SCOPES,
  API_TOKEN_EXPIRY_DAYS,
  type ApiScope,
  type ApiToken,
  type ApiTokenCreated,
  apiTokenCreateSchema,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { hasSomeRole, useSession } from '../../app/session.store.ts';
import { ConfirmModal } from '../../ui/Confirm.tsx';
import { Alert, Loader, Panel } from '../../ui/Feedback.tsx';
import { ControlField, Form, FormError, SelectField, TextField, useZodFormOf } from '../../ui/Form.tsx';
import { ApiReference } from './ApiReference.tsx';
import { type Endpoint, endpointsOf, type JsonSchema, sampleOf, useOpenApi } from './openapi.ts';
import './developer.css';

const TOKENS = ['developer.tokens'] as const;

/**
 * `?feed=developer`: personal API tokens (create with scopes and expiry, shown once, list, revoke),
 * example calls with the new token, and the API reference from docs/api/openapi.json (ADR 0034).
 */
export function DeveloperView() {
  const { t } = useTranslation('developer');
  const developer = useSession((s) => hasSomeRole(s.user, ['developer']));
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  return (
    <Panel title={t('title')} testId="view-feed-developer">
      <p className="panel__intro">{t('intro')}</p>
      <nav className="tabs developer__nav" aria-label={t('nav.label')}>
        {SECTIONS.map((section) => (
          <a key={section} className="tab" href={`#developer-${section}`}>
            {t(`nav.${section}`)}
          </a>
        ))}
      </nav>
      <Section name="tokens" title={t('tokens.title')}>
        {developer ? (
          <CreateToken onCreated={setCreated} />
        ) : (
          <Alert tone="info" testId="developer-role-needed">
            {t('tokens.notDeveloper')}
          </Alert>
        )}
        {created && <NewToken created={created} onDone={() => setCreated(null)} />}
        <TokenList />
      </Section>
      <Section name="examples" title={t('examples.title')}>
        <Examples created={created} />
      </Section>
      <Section name="reference" title={t('reference.title')}>
        <p>{t('reference.intro')}</p>
        <ApiReference />
      </Section>
    </Panel>
  );
}

const SECTIONS = ['tokens', 'examples', 'reference'] as const;

/** One section of the view, reachable from the section links (`#developer-tokens`…). */
function Section({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  return (
    <section
      className="developer__section"
      id={`developer-${name}`}
      aria-labelledby={`developer-${name}-title`}
    >
      <h2 id={`developer-${name}-title`}>{title}</h2>
      {children}
    </section>
  );
}

type TokenForm = { name: string; scopes: ApiScope[]; expiry: string };

function CreateToken({ onCreated }: { onCreated: (created: ApiTokenCreated) => void }) {
  const { t } = useTranslation('developer');
  const client = useQueryClient();
  const form = useZodFormOf<TokenForm, typeof apiTokenCreateSchema>(
    apiTokenCreateSchema,
    { name: '', scopes: ['read:profile'], expiry: '30' },
    (v) => ({
      name: v.name,
      scopes: v.scopes,
      expiresInDays: v.expiry === 'never' ? null : Number(v.expiry),
    }),
  );
  const submit = async (values: { name: string; scopes: ApiScope[]; expiresInDays: number | null }) => {
    const created = await api('developer.createToken', values);
    await client.invalidateQueries({ queryKey: TOKENS });
    form.reset();
    onCreated(created);
  };
  return (
    <Form form={form} onSubmit={submit} className="form card developer__form" testId="token-form">
      <TextField name="name" label={t('tokens.name')} hint={t('tokens.nameHint')} maxLength={60} required />
      <ControlField<ApiScope[]>
        name="scopes"
        render={({ value, onChange, error }) => (
          <fieldset
            className={`developer__scopes${error ? ' field--invalid' : ''}`}
            aria-describedby={error ? 'token-scopes-error' : undefined}
            data-testid="field-scopes"
          >
            <legend>{t('tokens.scopes')}</legend>
            {API_SCOPES.map((scope) => (
              <label key={scope} className="developer__scope">
                <input
                  type="checkbox"
                  checked={value.includes(scope)}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...value, scope] : value.filter((s) => s !== scope))
                  }
                  data-testid={`scope-${scope}`}
                />
                <span>
                  <code>{scope}</code> {t(`scopes.${scope.replace(':', '_')}`)}
                </span>
              </label>
            ))}
            {error && (
              <p id="token-scopes-error" className="developer__error" role="alert">
                {t('tokens.scopesHint')}
              </p>
            )}
          </fieldset>
        )}
      />
      <SelectField name="expiry" label={t('tokens.expiry')}>
        {API_TOKEN_EXPIRY_DAYS.map((days) => (
          <option key={days} value={String(days)}>
            {t('tokens.expiryDays', { count: days })}
          </option>
        ))}
        <option value="never">{t('tokens.never')}</option>
      </SelectField>
      <FormError />
      <button
        type="submit"
        className="button button--primary"
        disabled={form.formState.isSubmitting}
        data-testid="token-create"
      >
        {form.formState.isSubmitting ? t('tokens.creating') : t('tokens.create')}
      </button>
    </Form>
  );
}

function CopyButton({
  text,
  label,
  done,
  testId,
}: {
  text: string;
  label: string;
  done: string;
  testId: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button"
      data-testid={testId}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
        } catch {
          // Clipboard refused (no permission): the text stays selectable.
        }
      }}
    >
      <span aria-live="polite">{copied ? done : label}</span>
    </button>
  );
}

/** The secret of a token just made: shown this once, with a copy button. */
function NewToken({ created, onDone }: { created: ApiTokenCreated; onDone: () => void }) {
  const { t } = useTranslation('developer');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Brought into view and selected at once: ready to copy, and announced to screen readers.
  useEffect(() => {
    input.current?.scrollIntoView({ block: 'center' });
    input.current?.focus();
  }, []);
  return (
    <div className="developer__new card" role="status" data-testid="token-created">
      <h3>{t('tokens.createdTitle', { name: created.apiToken.name })}</h3>
      <p>{t('tokens.createdNote')}</p>
      <label htmlFor={id} className="sr-only">
        {t('tokens.tokenLabel')}
      </label>
      <div className="developer__secret">
        <input
          ref={input}
          id={id}
          readOnly
          value={created.token}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="token-secret"
        />
        <CopyButton
          text={created.token}
          label={t('tokens.copy')}
          done={t('tokens.copied')}
          testId="token-copy"
        />
      </div>
      <button type="button" className="button" onClick={onDone} data-testid="token-done">
        {t('tokens.done')}
      </button>
    </div>
  );
}

function TokenList() {
  const { t, i18n } = useTranslation('developer');
  const client = useQueryClient();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [revoked, setRevoked] = useState(false);
  const tokens = useQuery({
    queryKey: TOKENS,
    queryFn: ({ signal }) => api('developer.tokens', undefined, { signal }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api('developer.revokeToken', undefined, { params: { id } }),
    onSuccess: async () => {
      setRevoking(null);
      setRevoked(true);
      await client.invalidateQueries({ queryKey: TOKENS });
    },
  });
  const date = (iso: string) =>
    new Date(iso).toLocaleDateString(i18n.language, { year: 'numeric', month: 'short', day: 'numeric' });
  const now = Date.now();
  return (
    <div className="developer__list">
      <h3>{t('tokens.listTitle')}</h3>
      {revoked && (
        <Alert tone="success" testId="token-revoked">
          {t('tokens.revoked')}
        </Alert>
      )}
      {tokens.isPending ? (
        <Loader skeleton="rows" />
      ) : tokens.isError ? (
        <Alert>{errorText(tokens.error)}</Alert>
      ) : tokens.data.tokens.length === 0 ? (
        <p className="empty-state" data-testid="tokens-empty">
          {t('tokens.empty')}
        </p>
      ) : (
        <ul className="developer__tokens" data-testid="token-list">
          {tokens.data.tokens.map((token) => {
            const expired = token.expiresAt !== null && new Date(token.expiresAt).getTime() <= now;
            return (
              <li key={token.id} className="developer__token card" data-testid="token-item">
                <div className="developer__token-head">
                  <strong>{token.name}</strong> <code>{token.prefix}…</code>
                </div>
                <ul className="developer__chips" aria-label={t('tokens.scopes')}>
                  {token.scopes.map((scope) => (
                    <li key={scope}>
                      <code>{scope}</code>
                    </li>
                  ))}
                </ul>
                <p className="developer__meta">
                  <span>{t('tokens.created', { date: date(token.createdAt) })}</span>
                  <span className={expired ? 'developer__expired' : undefined}>
                    {token.expiresAt
                      ? t(expired ? 'tokens.expired' : 'tokens.expires', { date: date(token.expiresAt) })
                      : t('tokens.noExpiry')}
                  </span>
                  <span data-testid="token-last-used">
                    {token.lastUsedAt
                      ? t('tokens.lastUsed', { date: date(token.lastUsedAt) })
                      : t('tokens.neverUsed')}
                  </span>
                </p>
                <button
                  type="button"
                  className="button button--danger"
                  aria-label={t('tokens.revokeLabel', { name: token.name })}
                  onClick={() => {
                    setRevoked(false);
                    setRevoking(token);
                  }}
                  data-testid="token-revoke"
                >
                  {t('tokens.revoke')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmModal
        open={revoking !== null}
        title={t('tokens.revokeTitle')}
        danger
        busy={revoke.isPending}
        confirmLabel={t('tokens.revoke')}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
      >
        {revoke.isError && <Alert>{errorText(revoke.error)}</Alert>}
        {t('tokens.revokeText', { name: revoking?.name ?? '' })}
      </ConfirmModal>
    </div>
  );
}

/** An endpoint to show for a scope: a GET without path parameters first, else any call of it. */
function exampleFor(all: Endpoint[], scope: string): Endpoint | undefined {
  const of = all.filter((e) => e.op['x-token-scope'] === scope);
  const plain = (e: Endpoint) => !e.path.includes('{');
  return of.find((e) => e.method === 'GET' && plain(e)) ?? of.find(plain) ?? of[0];
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl call of an endpoint with the token: JSON or form fields of the body's required properties. */
export function curlOf(e: Endpoint, token: string, origin: string): string {
  const lines = [`curl${e.method === 'GET' ? '' : ` -X ${e.method}`} ${quote(`${origin}${e.path}`)}`];
  lines.push(`  -H ${quote(`Authorization: Bearer ${token}`)}`);
  const body = e.op.requestBody && Object.entries(e.op.requestBody.content)[0];
  if (body) {
    const sample = sampleOf(body[1].schema as JsonSchema) as Record<string, unknown>;
    if (body[0] === 'multipart/form-data') {
      for (const [k, v] of Object.entries(sample ?? {})) lines.push(`  -F ${quote(`${k}=${String(v)}`)}`);
    } else {
      lines.push(`  -H 'Content-Type: application/json'`, `  -d ${quote(JSON.stringify(sample ?? {}))}`);
    }
  }
  return lines.join(' \\\n');
}

function Examples({ created }: { created: ApiTokenCreated | null }) {
  const { t } = useTranslation('developer');
  const spec = useOpenApi();
  if (spec.isPending) return <Loader />;
  if (spec.isError) return <Alert>{t('reference.failed')}</Alert>;
  const all = endpointsOf(spec.data);
  const token = created?.token ?? '$FANVERSE_TOKEN';
  const scopes: readonly string[] = created?.apiToken.scopes ?? ['read:profile'];
  const origin = window.location.origin;
  const outside =
    all.find(
      (e) =>
        e.method === 'GET' &&
        !e.path.includes('{') &&
        e.op['x-token-scope'] &&
        !scopes.includes(e.op['x-token-scope']),
    ) ?? all.find((e) => e.path.endsWith('/auth/sessions'));
  const calls = scopes.map((scope) => [scope, exampleFor(all, scope)] as const);
  return (
    <div data-testid="developer-examples">
      <p>{t('examples.intro')}</p>
      <p className={created ? undefined : 'developer__hint'}>
        {created ? t('examples.withNew', { name: created.apiToken.name }) : t('examples.placeholder')}
      </p>
      {calls.map(([scope, e]) =>
        e ? (
          <Call
            key={scope}
            label={t('examples.scope', { scope })}
            text={curlOf(e, token, origin)}
            testId="example-call"
          />
        ) : null,
      )}
      {outside && (
        <>
          <p>{t('examples.refused')}</p>
          <Call
            label={
              outside.op['x-token-scope']
                ? t('examples.scope', { scope: outside.op['x-token-scope'] })
                : outside.op.operationId
            }
            text={curlOf(outside, token, origin)}
            testId="example-refused"
          />
        </>
      )}
    </div>
  );
}

function Call({ label, text, testId }: { label: string; text: string; testId: string }) {
  const { t } = useTranslation('developer');
  return (
    <figure className="developer__call" data-testid={testId}>
      <figcaption>
        <span>{label}</span>
        <CopyButton
          text={text}
          label={t('examples.copy')}
          done={t('examples.copied')}
          testId={`${testId}-copy`}
        />
      </figcaption>
      <pre>
        <code>{text}</code>
      </pre>
    </figure>
  );
}

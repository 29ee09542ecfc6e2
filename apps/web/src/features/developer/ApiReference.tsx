import { useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { type Endpoint, endpointsOf, type JsonSchema, specUrl, useOpenApi } from './openapi.ts';

/**
 * The API reference drawn from docs/api/openapi.json (generated from the contract): endpoints by
 * group, each opening to its parameters, request body and answer; filterable by path or summary.
 */
export function ApiReference() {
  const { t } = useTranslation('developer');
  const id = useId();
  const spec = useOpenApi();
  const [q, setQ] = useState('');
  const words = useDeferredValue(q.trim().toLowerCase());
  if (spec.isPending) return <Loader />;
  if (spec.isError) return <Alert>{t('reference.failed')}</Alert>;
  const all = endpointsOf(spec.data);
  const shown = words
    ? all.filter((e) =>
        `${e.method} ${e.path} ${e.op.summary} ${e.op.operationId} ${e.op['x-token-scope'] ?? ''}`
          .toLowerCase()
          .includes(words),
      )
    : all;
  const groups = new Map<string, Endpoint[]>();
  for (const e of shown) {
    const tag = e.op.tags[0] ?? 'other';
    groups.set(tag, [...(groups.get(tag) ?? []), e]);
  }
  return (
    <div className="api-ref" data-testid="api-reference">
      <div className="api-ref__bar">
        <label htmlFor={`${id}-q`} className="sr-only">
          {t('reference.filter')}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={q}
          maxLength={100}
          placeholder={t('reference.filter')}
          onChange={(e) => setQ(e.target.value)}
          data-testid="api-reference-filter"
        />
        <span className="api-ref__count" aria-live="polite" data-testid="api-reference-count">
          {t('reference.count', { count: shown.length })}
        </span>
        <a href={specUrl} download="openapi.json" className="button">
          {t('reference.download')}
        </a>
      </div>
      {shown.length === 0 && <p className="empty-state">{t('reference.none', { q })}</p>}
      {[...groups].map(([tag, endpoints]) => (
        <section key={tag} className="api-ref__group" aria-labelledby={`${id}-${tag}`}>
          <h3 id={`${id}-${tag}`}>{tag}</h3>
          {endpoints.map((e) => (
            <Operation key={`${e.method} ${e.path}`} endpoint={e} />
          ))}
        </section>
      ))}
    </div>
  );
}

function Operation({ endpoint: { method, path, op } }: { endpoint: Endpoint }) {
  const { t } = useTranslation('developer');
  const [open, setOpen] = useState(false);
  const auth =
    op.security.length === 0
      ? 'none'
      : op.security.some((s) => !Object.keys(s).length)
        ? 'optional'
        : 'required';
  const scope = op['x-token-scope'];
  const body = op.requestBody && Object.entries(op.requestBody.content)[0];
  const answer = op.responses['200']?.content?.['application/json']?.schema;
  return (
    <details
      className="api-op"
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="api-operation"
      data-operation={op.operationId}
    >
      <summary>
        <span className={`api-op__method api-op__method--${method.toLowerCase()}`}>{method}</span>
        <code className="api-op__path">{path}</code>
        <span className="api-op__summary">{op.summary}</span>
      </summary>
      {open && (
        <div className="api-op__body">
          <dl className="api-op__facts">
            <dt>{t('reference.auth')}</dt>
            <dd>
              {t(`reference.auth${auth === 'none' ? 'None' : auth === 'optional' ? 'Optional' : 'Required'}`)}
            </dd>
            <dt>{t('reference.tokenScope')}</dt>
            <dd data-testid="api-operation-scope">{scope ? <code>{scope}</code> : t('reference.noToken')}</dd>
            <dt>operationId</dt>
            <dd>
              <code>{op.operationId}</code>
            </dd>
          </dl>
          {op.parameters?.length ? (
            <>
              <h4>{t('reference.parameters')}</h4>
              <ul className="schema">
                {op.parameters.map((p) => (
                  <li key={`${p.in}:${p.name}`}>
                    <code>{p.name}</code> <span className="schema__type">{typeOf(p.schema)}</span>{' '}
                    <span className="schema__note">{t('reference.in', { where: p.in })}</span>
                    {p.required && <span className="schema__required"> {t('reference.required')}</span>}
                    <Constraints schema={p.schema} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {body && (
            <>
              <h4>
                {t('reference.body')} <span className="schema__note">{body[0]}</span>
              </h4>
              <Schema schema={body[1].schema} />
            </>
          )}
          {answer && (
            <>
              <h4>{t('reference.response')}</h4>
              <Schema schema={answer} />
            </>
          )}
        </div>
      )}
    </details>
  );
}

/** A short type name: string, integer, uuid, "a" | "b", object, Thing[], string | null. */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  const nullable = schema.nullable ? ' | null' : '';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ') + nullable;
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt) return alt.map(typeOf).join(' | ') + nullable;
  if (schema.allOf) return schema.allOf.map(typeOf).join(' & ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  if (type === 'array') return `${typeOf(schema.items)}[]${nullable}`;
  if (type === 'string' && schema.format) return `${schema.format}${nullable}`;
  return type + nullable;
}

/** Bounds zod writes for every safe integer: not worth showing. */
const bounded = (n: number | undefined) => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;

function Constraints({ schema }: { schema: JsonSchema }) {
  const parts = [
    schema.minLength !== undefined && `≥ ${schema.minLength} chars`,
    schema.maxLength !== undefined && `≤ ${schema.maxLength} chars`,
    bounded(schema.minimum) && `≥ ${schema.minimum}`,
    bounded(schema.maximum) && `≤ ${schema.maximum}`,
    schema.default !== undefined && `= ${JSON.stringify(schema.default)}`,
  ].filter(Boolean);
  return parts.length ? <span className="schema__note"> ({parts.join(', ')})</span> : null;
}

/** An object's properties as a nested list (arrays of objects open their items), depth-limited. */
function Schema({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }) {
  const target = schema.type === 'array' && schema.items ? schema.items : schema;
  const props = target.properties;
  if (!props || depth > 5) {
    return (
      <p className="schema">
        <span className="schema__type">{typeOf(schema)}</span>
      </p>
    );
  }
  return (
    <ul className="schema">
      {Object.entries(props).map(([name, child]) => {
        const inner = child.type === 'array' ? child.items : child;
        return (
          <li key={name}>
            <code>{name}</code> <span className="schema__type">{typeOf(child)}</span>
            {target.required?.includes(name) && <span className="schema__required"> *</span>}
            <Constraints schema={child} />
            {inner?.properties && <Schema schema={child} depth={depth + 1} />}
          </li>
        );
      })}
    </ul>
  );
}

import {
  type ApplyState,
  applicationProfileSchema,
  type Language,
  LIMITS,
  type Profile,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { CountryField } from '../../ui/CountryField.tsx';
import { DateField } from '../../ui/DateField.tsx';
import { Alert } from '../../ui/Feedback.tsx';
import { CheckboxField, Field } from '../../ui/Field.tsx';
import { useFormFields } from '../../ui/useFormFields.ts';
import { APPLY_STATE_KEY } from './applySteps.ts';
import { StepActions } from './StepActions.tsx';

/** How applicants heard of the product; stored as these keys and translated for admins. */
export const HOW_KNOWN = ['search', 'social', 'friend', 'creator', 'ads', 'other'] as const;

interface Values {
  fullName: string;
  country: string;
  profileUrl: string;
  email: string;
  phone: string;
  birthday: string;
  description: string;
  socialNetworks: string;
  instagram: string;
  experience: string;
  currentlyWorking: boolean;
  platformName: string;
  comments: string;
  howKnown: string;
}
type TextKey = Exclude<keyof Values, 'currentlyWorking'>;

function initialValues(state: ApplyState, profile: Profile | undefined): Values {
  const f = state.fields;
  return {
    fullName: f.fullName ?? profile?.name ?? '',
    country: f.country ?? profile?.country ?? '',
    profileUrl: f.profileUrl ?? '',
    email: f.email ?? profile?.email ?? '',
    phone: f.phone ?? '',
    birthday: f.birthday ?? profile?.birthdate ?? '',
    description: f.description ?? profile?.about ?? '',
    socialNetworks: f.socialNetworks ?? '',
    instagram: f.instagram ?? '',
    experience: f.experience ?? '',
    currentlyWorking: f.currentlyWorking === true,
    platformName: f.platformName ?? '',
    comments: f.comments ?? '',
    howKnown: f.howKnown ?? '',
  };
}

/** Step 1: the profile and the application fields of spec §3, checked with the contract schema. */
export function ProfileStep({ state, onDone }: { state: ApplyState; onDone: (next: ApplyState) => void }) {
  const language = useSession((s) => s.language);
  const username = useSession((s) => s.user?.user ?? '');
  const client = useQueryClient();
  const profile = useQuery({ queryKey: ['user.profile'], queryFn: () => api('user.profile') });
  if (profile.isPending) return null;
  return (
    <ProfileForm
      key={profile.data?._id ?? 'none'}
      initial={initialValues(state, profile.data)}
      username={username}
      language={language}
      onSaved={(next) => {
        client.setQueryData(APPLY_STATE_KEY, next);
        void client.invalidateQueries({ queryKey: ['user.profile'] });
        onDone(next);
      }}
    />
  );
}

function ProfileForm({
  initial,
  username,
  language,
  onSaved,
}: {
  initial: Values;
  username: string;
  language: Language;
  onSaved: (next: ApplyState) => void;
}) {
  const { t } = useTranslation('apply');
  const { values, setValues, errors, formError, set, fail, validate } = useFormFields<Values>(initial);
  const save = useMutation({
    mutationFn: (body: Values) => api('creator.apply', { step: '1', ...body }),
    onSuccess: onSaved,
    onError: fail,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = { ...values, platformName: values.currentlyWorking ? values.platformName : '' };
    if (!validate(applicationProfileSchema, body, language)) {
      // Take the keyboard to the first failing field.
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.apply-form [aria-invalid="true"]')?.focus(),
      );
      return;
    }
    save.mutate(body);
  };

  const text = (
    key: TextKey,
    props: { required?: boolean; type?: string; maxLength?: number; textarea?: boolean } = {},
  ) => {
    const common = {
      name: key,
      label: t(`fields.${key}`),
      hint: t(`hints.${key}`),
      value: values[key],
      onChange: set(key),
      error: errors[key],
      required: props.required,
      maxLength: props.maxLength,
    };
    return props.textarea ? <Field kind="textarea" {...common} /> : <Field {...common} type={props.type} />;
  };

  const maxYear = new Date().getFullYear() - LIMITS.minimumAge;
  return (
    <form className="form apply-form" onSubmit={onSubmit} noValidate data-testid="apply-step-1">
      <h2>{t('profile.title')}</h2>
      <p className="muted">{t('profile.intro')}</p>
      {formError && <Alert testId="form-error">{formError}</Alert>}
      <div className="apply-form__grid">
        <div className="field">
          <span className="field__label">{t('fields.username')}</span>
          <p className="apply-form__static" data-testid="apply-username">
            @{username} <Link to="/?feed=my-profile">{t('profile.changeUsername')}</Link>
          </p>
        </div>
        {text('fullName', { required: true, maxLength: LIMITS.nameMax })}
        <CountryField
          name="country"
          label={`${t('fields.country')} *`}
          hint={t('hints.country')}
          value={values.country}
          onChange={set('country')}
          error={errors.country}
        />
        <DateField
          name="birthday"
          label={t('fields.birthday')}
          hint={t('hints.birthday')}
          value={values.birthday}
          onChange={set('birthday')}
          error={errors.birthday}
          required
          maxYear={maxYear}
        />
        {text('email', { required: true, type: 'email' })}
        {text('phone', { required: true, type: 'tel', maxLength: 32 })}
        {text('instagram', { required: true, maxLength: 60 })}
        {text('profileUrl', { type: 'url', maxLength: 200 })}
        {text('socialNetworks', { maxLength: 300 })}
      </div>
      {text('description', { textarea: true, required: true, maxLength: 1000 })}
      {text('experience', { textarea: true, maxLength: 500 })}
      <CheckboxField
        name="currentlyWorking"
        label={t('fields.currentlyWorking')}
        checked={values.currentlyWorking}
        onChange={(checked) => setValues((v) => ({ ...v, currentlyWorking: checked }))}
      />
      {values.currentlyWorking && text('platformName', { maxLength: 100 })}
      <Field
        kind="select"
        name="howKnown"
        label={t('fields.howKnown')}
        value={values.howKnown}
        onChange={set('howKnown')}
        error={errors.howKnown}
      >
        <option value="">{t('hints.howKnown')}</option>
        {HOW_KNOWN.map((key) => (
          <option key={key} value={key}>
            {t(`howKnown.${key}`)}
          </option>
        ))}
      </Field>
      {text('comments', { textarea: true, maxLength: 1000 })}
      <StepActions busy={save.isPending} label={t('next')} busyLabel={t('saving')} testId="apply-next" />
    </form>
  );
}

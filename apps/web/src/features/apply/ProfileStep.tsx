import {
  type ApplicationProfile,
  type ApplyState,
  applicationProfileSchema,
  LIMITS,
  type Profile,
} from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { CountryField } from '../../ui/CountryField.tsx';
import { DateField } from '../../ui/DateField.tsx';
import {
  CheckField,
  ControlField,
  Form,
  FormError,
  SelectField,
  TextField,
  useZodFormOf,
} from '../../ui/Form.tsx';
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
  const username = useSession((s) => s.user?.user ?? '');
  const client = useQueryClient();
  const profile = useQuery({ queryKey: ['user.profile'], queryFn: () => api('user.profile') });
  if (profile.isPending) return null;
  return (
    <ProfileForm
      key={profile.data?._id ?? 'none'}
      initial={initialValues(state, profile.data)}
      username={username}
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
  onSaved,
}: {
  initial: Values;
  username: string;
  onSaved: (next: ApplyState) => void;
}) {
  const { t } = useTranslation('apply');
  const form = useZodFormOf<Values, typeof applicationProfileSchema>(
    applicationProfileSchema,
    initial,
    (values) => ({ ...values, platformName: values.currentlyWorking ? values.platformName : '' }),
  );
  const currentlyWorking = form.watch('currentlyWorking');
  const save = useMutation({
    mutationFn: (body: ApplicationProfile) => api('creator.apply', { step: '1', ...body }),
    onSuccess: onSaved,
  });

  const text = (
    key: TextKey,
    props: { required?: boolean; type?: string; maxLength?: number; textarea?: boolean } = {},
  ) => {
    const common = {
      name: key,
      label: t(`fields.${key}`),
      hint: t(`hints.${key}`),
      required: props.required,
      maxLength: props.maxLength,
    };
    return props.textarea ? (
      <TextField kind="textarea" {...common} />
    ) : (
      <TextField {...common} type={props.type} />
    );
  };

  const maxYear = new Date().getFullYear() - LIMITS.minimumAge;
  return (
    <Form form={form} onSubmit={save.mutateAsync} className="form apply-form" testId="apply-step-1">
      <h2>{t('profile.title')}</h2>
      <p className="muted">{t('profile.intro')}</p>
      <FormError />
      <div className="apply-form__grid">
        <div className="field">
          <span className="field__label">{t('fields.username')}</span>
          <p className="apply-form__static" data-testid="apply-username">
            @{username} <Link to="/?feed=my-profile">{t('profile.changeUsername')}</Link>
          </p>
        </div>
        {text('fullName', { required: true, maxLength: LIMITS.nameMax })}
        <ControlField<string>
          name="country"
          render={(control) => (
            <CountryField {...control} label={`${t('fields.country')} *`} hint={t('hints.country')} />
          )}
        />
        <ControlField<string>
          name="birthday"
          render={(control) => (
            <DateField
              {...control}
              label={t('fields.birthday')}
              hint={t('hints.birthday')}
              required
              maxYear={maxYear}
            />
          )}
        />
        {text('email', { required: true, type: 'email' })}
        {text('phone', { required: true, type: 'tel', maxLength: 32 })}
        {text('instagram', { required: true, maxLength: 60 })}
        {text('profileUrl', { type: 'url', maxLength: 200 })}
        {text('socialNetworks', { maxLength: 300 })}
      </div>
      {text('description', { textarea: true, required: true, maxLength: 1000 })}
      {text('experience', { textarea: true, maxLength: 500 })}
      <CheckField name="currentlyWorking" label={t('fields.currentlyWorking')} />
      {currentlyWorking && text('platformName', { maxLength: 100 })}
      <SelectField name="howKnown" label={t('fields.howKnown')}>
        <option value="">{t('hints.howKnown')}</option>
        {HOW_KNOWN.map((key) => (
          <option key={key} value={key}>
            {t(`howKnown.${key}`)}
          </option>
        ))}
      </SelectField>
      {text('comments', { textarea: true, maxLength: 1000 })}
      <StepActions busy={save.isPending} label={t('next')} busyLabel={t('saving')} testId="apply-next" />
    </Form>
  );
}

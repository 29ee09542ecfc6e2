import { type Profile, type UpdateProfileRequest, updateProfileRequestSchema } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useSession } from '../../app/session.store.ts';
import { CountryField } from '../../ui/CountryField.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { Field } from '../../ui/Field.tsx';
import { useFormFields } from '../../ui/useFormFields.ts';
import { ProfileImagePicker } from '../creator/ProfileImagePicker.tsx';
import { Avatar } from '../feed/Author.tsx';
import { countryName } from './countries.ts';
import { DeleteAccount } from './DeleteAccount.tsx';

export const PROFILE_QUERY_KEY = ['user.profile'] as const;

/** feed=my-profile: the own profile, view and edit (spec §3 profile fields). */
export function MyProfileView() {
  const { t } = useTranslation('profile');
  const setProfile = useSession((s) => s.setProfile);
  const query = useQuery({
    queryKey: PROFILE_QUERY_KEY,
    queryFn: async () => {
      const profile = await api('user.profile');
      setProfile(profile);
      return profile;
    },
  });
  const [editing, setEditing] = useState(false);

  if (query.isPending) return <Loader page />;
  if (query.isError) return <Alert>{errorText(query.error)}</Alert>;
  const profile = query.data;

  return (
    <section className="profile" data-testid="my-profile">
      <div className="profile__cover" role="img" aria-label={t('cover.label')} data-testid="profile-cover">
        {profile.cover && <img src={profile.cover} alt="" className="profile__cover-image" />}
      </div>
      <div className="profile__head">
        <span role="img" aria-label={t('avatar.label')} data-testid="profile-avatar">
          <Avatar
            user={{
              user: profile.username,
              name: profile.displayName || profile.name,
              avatar: profile.avatar,
            }}
            size="xl"
          />
        </span>
        <div>
          <h1 className="profile__name">{profile.displayName || profile.name}</h1>
          <p className="profile__handle">@{profile.username}</p>
        </div>
      </div>
      <div className="button-row profile__tools">
        {!editing && (
          <button
            type="button"
            className="button"
            onClick={() => setEditing(true)}
            data-testid="profile-edit"
          >
            {t('edit')}
          </button>
        )}
        <ProfileImagePicker />
      </div>
      {editing ? (
        <ProfileForm profile={profile} onDone={() => setEditing(false)} />
      ) : (
        <ProfileDetails profile={profile} />
      )}
      <DeleteAccount />
    </section>
  );
}

function ProfileDetails({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('profile');
  const empty = t('empty');
  const rows: [string, string][] = [
    [t('fields.username'), `@${profile.username}`],
    [t('fields.name'), profile.name],
    [t('fields.displayName'), profile.displayName || empty],
    [t('fields.about'), profile.about || empty],
    [t('fields.location'), profile.location || empty],
    [t('fields.birthdate'), profile.birthdate || empty],
    [t('fields.country'), profile.country ? countryName(profile.country, i18n.language) : empty],
    [t('fields.email'), profile.email],
    [t('fields.verified'), profile.verified ? t('verified.yes') : t('verified.no')],
  ];
  return (
    <dl className="details" data-testid="profile-details">
      {rows.map(([label, value]) => (
        <div key={label} className="details__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface FormValues {
  username: string;
  name: string;
  displayName: string;
  about: string;
  location: string;
  birthdate: string;
  country: string;
}

function toValues(profile: Profile): FormValues {
  return {
    username: profile.username,
    name: profile.name,
    displayName: profile.displayName ?? '',
    about: profile.about ?? '',
    location: profile.location ?? '',
    birthdate: profile.birthdate ?? '',
    country: profile.country ?? '',
  };
}

/** Only the changed fields; emptied optional texts become null. */
function changes(before: FormValues, after: FormValues): UpdateProfileRequest {
  const patch: UpdateProfileRequest = {};
  if (after.username !== before.username) patch.username = after.username;
  if (after.name !== before.name) patch.name = after.name;
  if (after.birthdate !== before.birthdate) patch.birthdate = after.birthdate;
  for (const key of ['displayName', 'about', 'location', 'country'] as const) {
    if (after[key] !== before[key]) patch[key] = after[key].trim() === '' ? null : after[key];
  }
  return patch;
}

function ProfileForm({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const { t } = useTranslation('profile');
  const language = useSession((s) => s.language);
  const setProfile = useSession((s) => s.setProfile);
  const queryClient = useQueryClient();
  const initial = toValues(profile);
  const { values, errors, formError, set, fail, validate } = useFormFields<FormValues>(initial);
  const mutation = useMutation({
    mutationFn: (patch: UpdateProfileRequest) => api('user.updateProfile', patch),
    onSuccess: (updated) => {
      setProfile(updated);
      queryClient.setQueryData(PROFILE_QUERY_KEY, updated);
      onDone();
    },
    onError: fail,
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const patch = changes(initial, values);
    if (!validate(updateProfileRequestSchema, patch, language)) return;
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    mutation.mutate(patch);
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate data-testid="profile-form">
      {formError && <Alert testId="form-error">{formError}</Alert>}
      <Field
        name="username"
        label={t('fields.username')}
        hint={t('hints.username')}
        value={values.username}
        onChange={set('username')}
        error={errors.username}
        required
        autoComplete="username"
      />
      <Field
        name="name"
        label={t('fields.name')}
        hint={t('hints.name')}
        value={values.name}
        onChange={set('name')}
        error={errors.name}
        required
        autoComplete="name"
      />
      <Field
        name="displayName"
        label={t('fields.displayName')}
        hint={t('hints.displayName')}
        value={values.displayName}
        onChange={set('displayName')}
        error={errors.displayName}
      />
      <Field
        kind="textarea"
        name="about"
        label={t('fields.about')}
        hint={t('hints.about')}
        value={values.about}
        onChange={set('about')}
        error={errors.about}
      />
      <Field
        name="location"
        label={t('fields.location')}
        hint={t('hints.location')}
        value={values.location}
        onChange={set('location')}
        error={errors.location}
      />
      <Field
        name="birthdate"
        type="date"
        label={t('fields.birthdate')}
        hint={t('hints.birthdate')}
        value={values.birthdate}
        onChange={set('birthdate')}
        error={errors.birthdate}
        required
        autoComplete="bday"
      />
      <CountryField
        name="country"
        label={t('fields.country')}
        hint={t('hints.country')}
        value={values.country}
        onChange={set('country')}
        error={errors.country}
      />
      <div className="button-row">
        <button
          type="submit"
          className="button button--primary"
          disabled={mutation.isPending}
          data-testid="profile-save"
        >
          {mutation.isPending ? t('saving') : t('save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

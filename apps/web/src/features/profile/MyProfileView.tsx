import { type Profile, type UpdateProfileRequest, updateProfileRequestSchema } from '@fanverse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorText } from '../../app/api.ts';
import { useOverlay } from '../../app/navigation.ts';
import { isCreator, useSession } from '../../app/session.store.ts';
import { CountryField } from '../../ui/CountryField.tsx';
import { Alert, Loader } from '../../ui/Feedback.tsx';
import { ControlField, Form, FormError, TextField, useZodFormOf } from '../../ui/Form.tsx';
import { AccountLinks } from '../account/AccountLinks.tsx';
import { ProfileImagePicker } from '../creator/ProfileImagePicker.tsx';
import { Avatar } from '../feed/Author.tsx';
import { CategoryPicker } from './CategoryPicker.tsx';
import { countryName } from './countries.ts';
import { DeleteAccount } from './DeleteAccount.tsx';
import { VisibleMarkSwitch } from './VisibleMarkSwitch.tsx';

export const PROFILE_QUERY_KEY = ['user.profile'] as const;

/** feed=my-profile: the own profile, view and edit (spec §3 profile fields). */
export function MyProfileView() {
  const { t } = useTranslation('profile');
  const { open } = useOverlay();
  const setProfile = useSession((s) => s.setProfile);
  const user = useSession((s) => s.user);
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
        <button
          type="button"
          className="button"
          onClick={() => open('profile', 'review')}
          data-testid="profile-review-open"
        >
          {t('reviewOpen')}
        </button>
      </div>
      {editing ? (
        <ProfileForm profile={profile} onDone={() => setEditing(false)} />
      ) : (
        <ProfileDetails profile={profile} />
      )}
      <AccountLinks />
      {isCreator(user) && <CategoryPicker />}
      {isCreator(user) && <VisibleMarkSwitch profile={profile} queryKey={PROFILE_QUERY_KEY} />}
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
  const setProfile = useSession((s) => s.setProfile);
  const queryClient = useQueryClient();
  const initial = toValues(profile);
  const form = useZodFormOf<FormValues, typeof updateProfileRequestSchema>(
    updateProfileRequestSchema,
    initial,
    (values) => changes(initial, values),
  );
  const mutation = useMutation({
    mutationFn: (patch: UpdateProfileRequest) => api('user.updateProfile', patch),
    onSuccess: (updated) => {
      setProfile(updated);
      queryClient.setQueryData(PROFILE_QUERY_KEY, updated);
      onDone();
    },
  });
  // The resolver answers the checked patch: only the changed fields.
  const onSubmit = (patch: UpdateProfileRequest) =>
    Object.keys(patch).length === 0 ? onDone() : mutation.mutateAsync(patch);

  return (
    <Form form={form} onSubmit={onSubmit} className="form" testId="profile-form">
      <FormError />
      <TextField
        name="username"
        label={t('fields.username')}
        hint={t('hints.username')}
        required
        autoComplete="username"
      />
      <TextField name="name" label={t('fields.name')} hint={t('hints.name')} required autoComplete="name" />
      <TextField name="displayName" label={t('fields.displayName')} hint={t('hints.displayName')} />
      <TextField kind="textarea" name="about" label={t('fields.about')} hint={t('hints.about')} />
      <TextField name="location" label={t('fields.location')} hint={t('hints.location')} />
      <TextField
        name="birthdate"
        type="date"
        label={t('fields.birthdate')}
        hint={t('hints.birthdate')}
        required
        autoComplete="bday"
      />
      <ControlField<string>
        name="country"
        render={(control) => (
          <CountryField {...control} label={t('fields.country')} hint={t('hints.country')} />
        )}
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
    </Form>
  );
}

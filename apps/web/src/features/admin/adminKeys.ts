/** Query keys of the admin lists, invalidated after an action. */
export const ADMIN_KEYS = {
  verifications: 'admin.verifications',
  complaints: 'admin.complaints',
  users: 'admin.users',
} as const;

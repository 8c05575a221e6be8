/** Accounts, sessions, tokens, roles and teams: the one door other layers import. */
export * from './actor';
export * from './api-tokens';
export * from './auth';
export * from './auth-secret';
export * from './people';
export * from './permissions';
export * from './session-actor';
export * from './setup-link';
export * from './teams';
export * from './usernames';
export * from './accounts';

// The landing folder's front door: an approved change taken to the team's repository.
export { pushCommits, type PushOptions, type PushResult } from './push-commits';

// The intake folder's front door: what code outside the engine may import from it.
export { transportConfig, type CloneCaps } from './git-clone';
export { gitAllowVariable, parseGitAllow } from './git-allow';
export { defaultGitUrlPolicy, GitUrlPolicy, type PinnedGitUrl } from './git-url-policy';
export { ingestArchive } from './ingest-archive';
export { ingestGit } from './ingest-git';
export { defaultIntakeCaps, type IntakeCaps } from './intake-caps';

// The policy folder's front door: what code outside the engine may import from it.
export { checkBuildCommand, checkCommand, checkSetupCommand } from './command-policy';
export { commandBuilds, rebuildGap, testCommandRebuilds } from './rebuild-gap';

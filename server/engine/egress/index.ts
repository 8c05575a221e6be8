export {
  allowlistOfToolConfig,
  defaultEgressAllowlist,
  egressAllowVariable,
  findEgressEntry,
  formatEgressAllowlist,
  parseEgressAllow,
  parseEgressEntry,
  type EgressAllowEntry,
  type EgressAllowlist,
} from './allowlist';
export { describeEgressRecord, type EgressRecord } from './egress-log';
export { localAddressProblem } from './local-ranges';
export { startEgressProxy, type EgressProxy, type EgressProxyOptions } from './egress-proxy';
export {
  egressEnv,
  forwarderArgv,
  forwarderFailure,
  forwarderScriptPath,
  proxyVariables,
  sandboxEgressSocket,
  sandboxForwarderScript,
} from './forwarder';
export {
  defaultNpmRegistry,
  loadToolConfig,
  readToolConfig,
  toolConfigFrom,
  type ToolConfig,
} from './tool-config';

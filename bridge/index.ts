export { negotiate, PROTOCOL_VERSION } from './version.ts'
export { ErrorCode, type RpcError } from './error-classes.ts'
export type {
  Fail,
  Hello,
  HostEvent,
  HostMethods,
  ExternalConnection,
  IdentityToken,
  OpenTarget,
  Result,
  RpcRequest,
  WalletDescriptor,
  View,
  Welcome,
  WidgetMethods,
} from './methods.ts'
export { checkExternalConnection, dispatch, fail, hostChecks, isResult, serve, widgetChecks } from './serve.ts'
export { chainNotOffered, isChainOffered, offeredChains } from './chains.ts'
export {
  checkParams,
  checkRpcRequest,
  isRpcRead,
  methodOf,
  parseRequest,
  timeouts,
  type FrameMethod,
  type ParamsOf,
  type ParsedRequest,
  type ResultOf,
} from './rpc-methods.ts'
export type { Address, Quantity, TransactionParams } from './rpc-params.ts'

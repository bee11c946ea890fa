export { negotiate, PROTOCOL_VERSION } from './version.ts'
export { ErrorCode, fail, isResult, type Fail, type Result, type RpcError } from './errors.ts'
export type {
  Hello,
  HostEvent,
  HostMethods,
  ExternalConnection,
  IdentityToken,
  OpenTarget,
  RpcRequest,
  WalletDescriptor,
  View,
  Welcome,
  WidgetMethods,
} from './methods.ts'
export { checkExternalConnection, checkRpcRequest, hostChecks, widgetChecks } from './validate.ts'
export { dispatch, serve } from './serve.ts'
export { chainNotOffered, isChainOffered, offeredChains } from './chains.ts'
export {
  checkParams,
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

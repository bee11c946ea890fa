export { negotiate, PROTOCOL_VERSION } from './version.ts'
export { ErrorCode, fail, isResult, ok, toFail, type Fail, type Ok, type Result, type RpcError } from './errors.ts'
export {
  hostEvents,
  views,
  type Hello,
  type HostEvent,
  type HostMethodName,
  type HostMethods,
  type ExternalConnection,
  type OpenTarget,
  type RpcRequest,
  type WalletDescriptor,
  type View,
  type Welcome,
  type WidgetMethodName,
  type WidgetMethods,
} from './methods.ts'
export { checkCall, checkExternalConnection, checkRpcRequest, hostChecks, widgetChecks } from './validate.ts'
export { dispatch, serve } from './serve.ts'
export { checkParams, isRpcRead, methodOf, rpcReads, timeouts, type FrameMethod, type Kind } from './rpc-methods.ts'

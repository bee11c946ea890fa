/** Error codes the sdk raises itself; server errors use the HTTP status as a string ('400', '401', ...). */
export type SdkErrorCode =
  | 'NO_RESPONSE'
  | 'REQUEST_SETUP_ERROR'
  | 'UNKNOWN_ERROR'
  | 'ABORT_ERR'
  | 'RAMPABLE_NOT_ENABLED'
  | 'TOKEN_REFRESH_FAILED'
  | 'APP_ID_NOT_SET'
  | 'SERVICE_NOT_FOUND'
  | 'ALL_RPC_URLS_FAILED'
  | 'INVALID_CONFIG'
  | (string & {})

export type SdkErrorOptions = {
  code: SdkErrorCode
  details?: unknown
  cause?: unknown
}

/**
 * The one error class of the service clients: message, code, optional details. Every failure is
 * normalised by one table (the functions below, one a row):
 *
 * | situation                  | message                                          | code                       | details       |
 * |----------------------------|--------------------------------------------------|----------------------------|---------------|
 * | the server answered an error status | the body's `message`, else 'An error occurred' | the HTTP status as a string | the body |
 * | sent, no answer came back  | 'No response received from server'               | NO_RESPONSE                | none          |
 * | the request could not be built | the error's own message                      | REQUEST_SETUP_ERROR        | none          |
 * | anything else              | its own message, else 'An unknown error occurred' | its own code, else UNKNOWN_ERROR | none    |
 *
 * These string codes are the service clients' own; the EIP-1193 numeric codes a dapp sees from the
 * provider are another vocabulary (bridge/error-classes.ts).
 */
export class SdkError extends Error {
  override name = 'SdkError'
  readonly code: SdkErrorCode
  readonly details?: unknown

  constructor(message: string, options: SdkErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = options.code
    if (options.details !== undefined) this.details = options.details
  }
}

export const messages = {
  serverError: 'An error occurred',
  noResponse: 'No response received from server',
  unknown: 'An unknown error occurred',
  rampableNotEnabled: "Please enable the rampable integration through the provider's client dashboard",
  appIdNotSet: 'App ID is not set',
  appConfigFailed: 'Failed to fetch app config',
  googleFailed: 'Failed to verify google',
  refreshFailed: 'Failed to refresh token',
  allRpcFailed: 'All RPC URLs failed',
  methodNotAllowed: 'method not allowed',
} as const

/** Row 1 of the table: the server answered with an error status. */
export function fromResponse(status: number, body: unknown): SdkError {
  const message = readMessage(body) ?? messages.serverError
  return new SdkError(message, { code: String(status), details: body })
}

/** Row 2: the request went out and nothing came back (connection refused, reset, DNS, CORS). */
export function noResponse(cause: unknown): SdkError {
  return new SdkError(messages.noResponse, { code: 'NO_RESPONSE', cause })
}

/** Row 3: the request could not be built (bad URL, unserialisable body, signing failure). */
export function setupError(cause: unknown): SdkError {
  if (cause instanceof SdkError) return cause
  const message = cause instanceof Error ? cause.message : String(cause)
  return new SdkError(message, { code: 'REQUEST_SETUP_ERROR', cause })
}

/** Row 4: anything else keeps its own message and code. */
export function normalizeError(error: unknown): SdkError {
  if (error instanceof SdkError) return error
  const message = readMessage(error) ?? messages.unknown
  const code = readCode(error) ?? 'UNKNOWN_ERROR'
  return new SdkError(message, { code, cause: error })
}

function readMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const message = (value as { message?: unknown }).message
  return typeof message === 'string' && message !== '' ? message : undefined
}

function readCode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  // An aborted fetch rejects with a DOMException whose legacy numeric code (20) means nothing to callers.
  if ((value as { name?: unknown }).name === 'AbortError') return 'ABORT_ERR'
  const code = (value as { code?: unknown }).code
  if (typeof code === 'string' && code !== '') return code
  if (typeof code === 'number') return String(code)
  return undefined
}

// Benchmark of sponsored smart-account operations on the local chain (not a test): the time from
// Confirm (the owner signs the operation's hash) to its receipt, and the gas a sponsored deploy and
// a sponsored DEMO send use. The sandbox runs in this process on a throw-away data folder, with the
// bundler's default gathering delay (300 ms), as `npm start` runs it.
//   npx tsx scripts/bench-smart-account.ts [-- --runs 10]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '../sdk/index.ts'
import { demoContracts } from '../sandbox/contracts/deploy.ts'
import { createSandbox } from '../sandbox/server.ts'

const args = process.argv.slice(2)
const runsIndex = args.indexOf('--runs')
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 10
const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-aa-'))
const sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir })
const headers = { 'x-app-id': 'smart', 'x-environment': 'development', 'content-type': 'application/json' }
const post = async (path: string, body: unknown, token?: string) => {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'x-client-secret': 'smart-client-secret', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  return (await response.json()).data
}
try {
  const sent = await fetch(`${sandbox.url}/api/v2/auth/login-otp`, {
    method: 'POST',
    headers: { ...headers, 'x-client-secret': 'smart-client-secret', 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=bench-aa@example.com',
  }).then((r) => r.json())
  const [message] = await fetch(`${sandbox.url}/dev/api/inbox?to=bench-aa@example.com`).then((r) => r.json())
  const login = await post('/api/v2/auth/verify-otp', { verificationToken: sent.data.verificationToken, otp: message.code })
  const wallet = await post('/api/v2/account/create', {}, login.accessToken)
  const owner = wallet.address[0].address
  const sdk = createClient({ appId: 'smart', env: 'sandbox', clientSecret: 'smart-client-secret', baseUrls: { smartAccount: `${sandbox.url}/api/v1` } })
  const [account] = (await sdk.smartAccount.create({ owner: { id: owner, provider: 'email' } })).accounts
  await post(
    '/api/v2/wallet/send-token',
    { network: 'local-1', to: account!.aaAddress, tokenAddress: demoContracts.demoToken.address, amount: '100' },
    wallet.walletToken,
  )

  /** Confirm → receipt: the owner's signature of the hash, submit, the bundle, the receipt. */
  async function run(kind: 'deploy' | 'sendToken', params: object) {
    const built = await (sdk.smartAccount.userOp[kind].hash as (p: object) => Promise<{ hash: string; userOpId: string }>)({
      accountId: account!.id,
      ...params,
      isSponsored: true,
    })
    const started = performance.now()
    // The owner's EIP-712 authorisation in the account's domain, signed by the wallet service for the operation it stored.
    const { signature } = await post('/api/v2/wallet/sign-user-operation', { userOpId: built.userOpId }, wallet.walletToken)
    await sdk.smartAccount.userOp.submit({ hash: built.hash, userOpId: built.userOpId, signature, isSponsored: true })
    const receipt = await sdk.smartAccount.userOp.receipt({ userOpId: built.userOpId, wait: true })
    if (receipt.status !== 'included' || !receipt.success) throw new Error(`${kind}: ${JSON.stringify(receipt)}`)
    return { ms: performance.now() - started, gas: Number(receipt.actualGasUsed) }
  }
  const deploy = await run('deploy', {})
  const sends: number[] = []
  let sendGas = 0
  for (let i = 0; i < runs; i++) {
    const send = await run('sendToken', { to: owner, tokenAddress: demoContracts.demoToken.address, amount: '1' })
    sends.push(send.ms)
    sendGas = send.gas
  }
  sends.sort((a, b) => a - b)
  const result = {
    runs,
    deployGas: deploy.gas,
    deployConfirmToReceiptMs: Math.round(deploy.ms),
    sendGas,
    sendConfirmToReceiptMedianMs: Math.round(sends[Math.floor(sends.length / 2)]!),
    sendConfirmToReceiptMaxMs: Math.round(sends.at(-1)!),
    bundleDelayMs: 300,
  }
  console.log(JSON.stringify(result))
} finally {
  await sandbox.close()
  rmSync(dataDir, { recursive: true, force: true })
}

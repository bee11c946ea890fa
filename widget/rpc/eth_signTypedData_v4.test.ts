import { getContractAddress, pad } from 'viem'
import { describe, expect, test } from 'vitest'
import { alice } from '../test-wallet.ts'
import { testContext } from './test-context.ts'

const tick = () => new Promise((r) => setTimeout(r, 0))
/** alice's smart account (WalletKitAccountFactory, her salt): the frame knows it without asking anyone. */
const alicesAccount = getContractAddress({
  opcode: 'CREATE2',
  from: '0x56CC0Ecf331Ed3f4b89088305C18416Fe352F7E7',
  salt: pad(alice.address.toLowerCase() as `0x${string}`, { dir: 'right', size: 32 }),
  bytecodeHash: '0x5b2ff9cb8bffd88768390927239eece6d58711b0229bbcec088007aa755036a5',
})
const userOpHash = `0x${'ab'.repeat(32)}`
/** The authorisation of one operation of alice's smart account (WalletKitAccount.sol): what a site must never get. */
const domainTypes: Record<string, string> = { name: 'string', version: 'string', chainId: 'uint256', verifyingContract: 'address' }
const operation = (domain: Record<string, unknown>, primaryType = 'WalletKitOperation') => ({
  domain,
  types: {
    EIP712Domain: Object.keys(domain).map((name) => ({ name, type: domainTypes[name] })),
    [primaryType]: [{ name: 'userOpHash', type: 'bytes32' }],
  },
  primaryType,
  message: { userOpHash },
})

describe("eth_signTypedData_v4 in the user's own smart account's domain", () => {
  test("refused before any confirmation: the account's domain, its address on any chain, the operation type", async () => {
    const { wallet, call, calls } = testContext({ session: alice })
    await wallet.restore()
    const own = { name: 'WalletKitAccount', version: '1', chainId: 31337, verifyingContract: alicesAccount }
    const cases = [
      operation(own),
      operation({ name: own.name, version: own.version, verifyingContract: own.verifyingContract }),
      operation({ ...own, chainId: 1 }),
      // Another name or version, the same contract: still the account.
      operation({ name: 'Anything', version: '2', chainId: 31337, verifyingContract: alicesAccount.toLowerCase() }),
      // The account's name with another (or no) contract.
      operation({ name: 'WalletKitAccount', version: '1', chainId: 31337, verifyingContract: '0x000000000000000000000000000000000000dEaD' }),
      operation({ name: 'WalletKitAccount', version: '1' }),
      // The operation type in any domain.
      operation({ name: 'Game', version: '1', chainId: 31337, verifyingContract: '0x000000000000000000000000000000000000dEaD' }),
    ].map((typed) => JSON.parse(JSON.stringify(typed)))
    for (const typed of cases) {
      for (const data of [typed, JSON.stringify(typed)]) {
        const answer = await call('eth_signTypedData_v4', [alice.address, data])
        expect(answer, JSON.stringify(typed.domain)).toMatchObject({ code: -32602, message: expect.stringContaining('your own smart account') })
        expect(wallet.ui.get().confirmation).toBeNull()
      }
    }
    // The smart account the site sees (session.smartAccount), in any domain, with any type.
    await wallet.showSmartAccount({ address: '0x000000000000000000000000000000000000aa00', accounts: { '31337': 'acc-1' } })
    const mine = {
      domain: { name: 'Mail', version: '1', chainId: 31337, verifyingContract: '0x000000000000000000000000000000000000AA00' },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    }
    expect(await call('eth_signTypedData_v4', ['0x000000000000000000000000000000000000aa00', JSON.stringify(mine)])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('your own smart account'),
    })
    expect(calls).toEqual([])
  })

  test('typed data of another contract is still shown for confirmation', async () => {
    const { wallet, call } = testContext({ session: alice })
    await wallet.restore()
    const mail = {
      domain: { name: 'Mail', version: '1', chainId: 31337, verifyingContract: '0x000000000000000000000000000000000000dEaD' },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    }
    void call('eth_signTypedData_v4', [alice.address, JSON.stringify(mail)])
    await tick()
    expect(wallet.ui.get().confirmation?.payload.message).toContain('"Mail"')
  })
})

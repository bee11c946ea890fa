import { getContractAddress, hashTypedData, pad, stringToBytes, zeroHash } from 'viem'
import { hashTypedData as hash7739TypedData } from 'viem/experimental/erc7739'
import { describe, expect, test } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

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

/** The answer if the request is settled without the user (a refusal), else 'shown': a confirmation waits for the user. */
const settled = async (answer: Promise<unknown>) => Promise.race([answer, new Promise((r) => setTimeout(() => r('shown'), 50))])

describe("eth_signTypedData_v4: an ERC-7739 signature for the user's own smart account (red team, issue 21)", () => {
  // ERC-7739 (Solady's ERC1271, which WalletKitAccount uses): the account takes the owner's signature
  // of keccak(0x1901 ‖ appDomain ‖ hashStruct(TypedDataSign{contents, name, version, chainId,
  // verifyingContract, salt})) as its own ERC-1271 signature of the app's typed data. The account's
  // domain is in the MESSAGE here, the app's (e.g. Permit2's) in the domain: signed by the embedded
  // wallet for a site, it lets that site spend the smart account (a Permit2 transfer of its tokens).
  const permit2 = { name: 'Permit2', chainId: 31337, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' } as const
  const permitTypes = {
    TokenPermissions: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    PermitTransferFrom: [
      { name: 'permitted', type: 'TokenPermissions' },
      { name: 'spender', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  }
  const contents = {
    permitted: { token: '0x000000000000000000000000000000000000bEEF', amount: '1000000000000000000000' },
    spender: '0x000000000000000000000000000000000000dEaD',
    nonce: '1',
    deadline: '99999999999',
  }
  const nested = (name: unknown, verifyingContract: string) => ({
    domain: permit2,
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      TypedDataSign: [
        { name: 'contents', type: 'PermitTransferFrom' },
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
        { name: 'salt', type: 'bytes32' },
      ],
      ...permitTypes,
    },
    primaryType: 'TypedDataSign',
    message: { contents, name, version: '1', chainId: '31337', verifyingContract, salt: zeroHash },
  })

  test("the nested TypedDataSign naming the account is refused (its digest is the account's ERC-1271 digest)", async () => {
    const attack = nested('WalletKitAccount', alicesAccount)
    // What the attack obtains: exactly the digest the smart account accepts as its own signature of the permit.
    const accountDigest = hash7739TypedData({
      domain: permit2,
      types: permitTypes,
      primaryType: 'PermitTransferFrom',
      message: contents,
      verifierDomain: { name: 'WalletKitAccount', version: '1', chainId: 31337, verifyingContract: alicesAccount, salt: zeroHash },
    } as never)
    expect(hashTypedData(attack as never)).toBe(accountDigest)
    const { wallet, call, calls } = testContext({ session: alice })
    await wallet.restore()
    const variants = [
      attack,
      nested('WalletKitAccount', alicesAccount.toLowerCase()),
      // The name as its UTF-8 bytes: viem hashes a byte array in a string field as those bytes.
      nested([...stringToBytes('WalletKitAccount')], alicesAccount),
      // The account as the site sees it (session.smartAccount is checked below too).
      nested('walletkitaccount ', '0x000000000000000000000000000000000000dEaD'),
    ]
    for (const typed of variants) {
      const answer = await settled(call('eth_signTypedData_v4', [alice.address, JSON.stringify(typed)]))
      expect(answer, JSON.stringify(typed.message.name)).toMatchObject({ code: -32602, message: expect.stringContaining('your own smart account') })
      expect(wallet.ui.get().confirmation).toBeNull()
    }
    expect(calls).toEqual([])
  })

  test("the account's name given as bytes in the domain is still the account's domain", async () => {
    const { wallet, call } = testContext({ session: alice })
    await wallet.restore()
    const other = '0x000000000000000000000000000000000000bEEF'
    const typed = {
      domain: { name: [...stringToBytes('WalletKitAccount')], version: '1', chainId: 31337, verifyingContract: other },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        PersonalSign: [{ name: 'prefixed', type: 'bytes' }],
      },
      primaryType: 'PersonalSign',
      message: { prefixed: '0x1234' },
    }
    expect(await settled(call('eth_signTypedData_v4', [alice.address, JSON.stringify(typed)]))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('your own smart account'),
    })
    expect(wallet.ui.get().confirmation).toBeNull()
  })
})

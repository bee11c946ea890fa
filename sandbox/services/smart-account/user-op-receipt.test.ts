import { encodeEventTopics, keccak256, toHex, type Address, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { opLogs } from './user-op-receipt.ts'

// Which logs of a bundle transaction belong to one operation (eth_getUserOperationReceipt's `logs`).

const [beforeExecution] = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'BeforeExecution' })
const [userOperationEvent] = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'UserOperationEvent' })
const [accountDeployed] = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'AccountDeployed' })
const [deposited] = encodeEventTopics({ abi: entryPoint07Abi, eventName: 'Deposited' })
const token: Address = '0x1111111111111111111111111111111111111111'
const other: Address = '0x2222222222222222222222222222222222222222'
const hashA = keccak256(toHex('a'))
const hashB = keccak256(toHex('b'))
const hashC = keccak256(toHex('c'))

const log = (name: string, address: Address, topics: Hex[]) => ({ name, address, topics })
const ep = (name: string, ...topics: Hex[]) => log(name, entryPointAddress, topics)
const names = (logs: { name: string }[]) => logs.map((l) => l.name)

/** handleOps with A and B: both validated (deployments, deposits), then each executed and closed by its UserOperationEvent. */
const bundle = [
  ep('deployed A', accountDeployed!, hashA),
  ep('deposit B', deposited!, hashB),
  ep('before', beforeExecution!),
  log('A approves', token, ['0x01']),
  ep('event A', userOperationEvent!, hashA),
  log('B approves', token, ['0x02']),
  log('B transfers', token, ['0x03']),
  ep('event B', userOperationEvent!, hashB),
]

describe("an operation's logs in its bundle", () => {
  test('each operation gets the logs of its own execution only, none of the validation phase or of the other', () => {
    expect(names(opLogs(bundle, hashA))).toEqual(['A approves'])
    expect(names(opLogs(bundle, hashB))).toEqual(['B approves', 'B transfers'])
    expect(opLogs(bundle, hashC)).toEqual([])
  })

  test('the hash is matched whatever its case', () => {
    expect(names(opLogs(bundle, hashB.toUpperCase().replace('0X', '0x') as Hex))).toEqual(['B approves', 'B transfers'])
  })

  test("another contract logging the EntryPoint's topics (a fake UserOperationEvent or BeforeExecution) is an ordinary log of the operation", () => {
    const forged = [
      ep('before', beforeExecution!),
      log('A forges B', other, [userOperationEvent!, hashB]),
      log('A forges before', other, [beforeExecution!]),
      log('A approves', token, ['0x01']),
      ep('event A', userOperationEvent!, hashA),
      log('B approves', token, ['0x02']),
      ep('event B', userOperationEvent!, hashB),
    ]
    expect(names(opLogs(forged, hashA))).toEqual(['A forges B', 'A forges before', 'A approves'])
    expect(names(opLogs(forged, hashB))).toEqual(['B approves'])
  })

  test('two handleOps in one transaction: the second starts again after its BeforeExecution', () => {
    const twice = [
      ep('before 1', beforeExecution!),
      log('A approves', token, ['0x01']),
      ep('event A', userOperationEvent!, hashA),
      log('between bundles', other, ['0x09']),
      ep('deposit C', deposited!, hashC),
      ep('before 2', beforeExecution!),
      log('C approves', token, ['0x03']),
      ep('event C', userOperationEvent!, hashC),
    ]
    expect(names(opLogs(twice, hashA))).toEqual(['A approves'])
    expect(names(opLogs(twice, hashC))).toEqual(['C approves'])
  })
})

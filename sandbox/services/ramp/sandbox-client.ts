import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AppSeed } from '../app-config/apps.ts'

// The seeded apps' RSA ramp clients. A seed names its client id (secrets.rampClientId); the key pair
// is generated once into the data folder, like the master key, so no private key is in the
// repository and every clone has its own. The private key stays a file on this machine (mode 0600):
// a back end on it reads the file (examples/ramp/main.ts), and no route serves it, so no web page can
// fetch it. The sandbox registers only the public key, as a real ramp service would.

/** Where the private key (PKCS#8 PEM) of app `appId`'s sandbox ramp client is kept. */
export const rampClientKeyPath = (dataDir: string, appId: string) => join(dataDir, `ramp-client-${appId}.pem`)

/** The private key in the data folder, generated on first use; throws on a file that is not an RSA private key. */
function privateKeyPem(path: string): string {
  try {
    const pem = readFileSync(path, 'utf8')
    if (createPrivateKey(pem).asymmetricKeyType !== 'rsa') throw new Error(`${path} is not an RSA private key`)
    return pem
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  writeFileSync(path, pem, { mode: 0o600, flag: 'wx' })
  return pem
}

/**
 * The seeds with each ramp client's public key filled in (SPKI PEM): a seed that names a
 * `rampClientId` and no `rampPublicKey` gets the key pair of the data folder's file.
 */
export function withSandboxRampClients(seeds: AppSeed[], dataDir: string): AppSeed[] {
  return seeds.map((seed) => {
    if (!seed.secrets?.rampClientId || seed.secrets.rampPublicKey) return seed
    const publicKey = createPublicKey(privateKeyPem(rampClientKeyPath(dataDir, seed.appId)))
      .export({ type: 'spki', format: 'pem' })
      .toString()
    return { ...seed, secrets: { ...seed.secrets, rampPublicKey: publicKey } }
  })
}

export type Credentials = { username: string; password: string }

/**
 * SPEC.md section 5: both fields are required (`null` when one is empty). The username is trimmed
 * (the service ignores its case and the spaces around it); the password is taken as typed.
 */
export function readCredentials(username: string, password: string): Credentials | null {
  const name = username.trim()
  return name && password ? { username: name, password } : null
}

export type Credentials = { username: string; password: string }

/**
 * Both fields are required (`null` when one is empty: the form then says 'Please enter your
 * username and password'). The username is trimmed (the service ignores its case and the spaces
 * around it); the password is taken as typed.
 */
export function readCredentials(username: string, password: string): Credentials | null {
  const name = username.trim()
  return name && password ? { username: name, password } : null
}

/**
 * The sign-in methods of the connect modal, by the names it shows them under (the social
 * providers, the messaging-app login and e-mail). The modal runs on the provider's
 * origin and users trust what it shows: a wallet the host page announces must not pass itself off
 * as one of them ("Google" with Google's icon, leading to a page that asks for the password).
 */
export const signInMethodNames = ['Google', 'Apple', 'Telegram', 'WhatsApp', 'Email'] as const
export type SignInMethodName = (typeof signInMethodNames)[number]

/**
 * Letters and digits that look like a Latin letter, folded onto it (after NFKC, lower case and
 * accents removed): a small part of Unicode's confusables (UTS #39), the Cyrillic and Greek
 * look-alikes and the digit and symbol swaps that fool a reader in a short name. `i`, `1`, `|`
 * and `!` all fold to `l` (GoogIe, Goog1e), so a name is compared by this skeleton, never as typed.
 */
const lookAlikes: Readonly<Record<string, string>> = {
  а: 'a',
  ɑ: 'a',
  α: 'a',
  '@': 'a',
  '4': 'a',
  в: 'b',
  β: 'b',
  с: 'c',
  ϲ: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  ε: 'e',
  '3': 'e',
  ɡ: 'g',
  ց: 'g',
  һ: 'h',
  н: 'h',
  і: 'l',
  ї: 'l',
  ι: 'l',
  ı: 'l',
  ӏ: 'l',
  i: 'l',
  '1': 'l',
  '|': 'l',
  '!': 'l',
  ј: 'j',
  к: 'k',
  κ: 'k',
  м: 'm',
  п: 'n',
  η: 'n',
  о: 'o',
  ο: 'o',
  σ: 'o',
  '0': 'o',
  р: 'p',
  ρ: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  '5': 's',
  $: 's',
  т: 't',
  τ: 't',
  '7': 't',
  υ: 'u',
  ц: 'u',
  ν: 'v',
  ѵ: 'v',
  ԝ: 'w',
  ω: 'w',
  ш: 'w',
  х: 'x',
  χ: 'x',
  у: 'y',
  γ: 'y',
  ү: 'y',
}

/** The words of `name` as they look: folded letters, separators and invisible characters dropped. */
function skeletonWords(name: string): string[] {
  const folded = Array.from(
    name
      .normalize('NFKC')
      .toLowerCase()
      .normalize('NFD')
      // Accents, zero-width and bidi controls: nothing a reader sees.
      .replace(/[\p{M}\p{Cf}]/gu, ''),
    (char) => lookAlikes[char] ?? char,
  )
    .join('')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
  return folded.split(/[^a-z0-9]+/).filter(Boolean)
}

/**
 * The sign-in method `name` passes itself off as, if any: its skeleton, or any run of its words
 * joined ('Continue with Goo gle', 'G o o g l e'), is one of theirs. 'Pineapple' or 'Gmail Wallet'
 * are not: a method's name must stand as whole words.
 */
export function takesSignInName(name: string): SignInMethodName | undefined {
  const words = skeletonWords(name)
  // Computed here, not at load: the host bundle imports this folder and must shake it off.
  const methods = signInMethodNames.map((method) => ({ method, skeleton: skeletonWords(method).join('') }))
  for (let from = 0; from < words.length; from++) {
    let run = ''
    for (let to = from; to < words.length; to++) {
      run += words[to]
      const hit = methods.find((m) => m.skeleton === run)
      if (hit) return hit.method
    }
  }
  return undefined
}

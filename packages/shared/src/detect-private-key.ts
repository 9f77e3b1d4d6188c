/** A line break in a file, or written as an escape inside a string literal (`\\n`, `\\r\\n`). */
const BREAK = String.raw`(?:\r?\n|(?:\\r)?\\n)`;
/** What may stand before key material on its line in source code: indentation, quotes, string concatenation. */
const PAD = String.raw`[ \t"'\x60+,]*`;
/** A PEM header line (`Proc-Type: 4,ENCRYPTED`), ending at a real or an escaped line break. */
const HEADER = String.raw`${PAD}[A-Za-z-]+: (?:(?!\\n)[^\n])*${BREAK}`;

/**
 * A PEM private key block (RFC 7468 labels `PRIVATE KEY`, `RSA PRIVATE KEY`, `EC PRIVATE KEY`,
 * `ENCRYPTED PRIVATE KEY`, `OPENSSH PRIVATE KEY`, and PGP's `PRIVATE KEY BLOCK`) whose next line
 * holds key material: at least 40 base64 characters. The block may be indented or quoted (a key in
 * a test fixture or a template literal) and its line breaks may be escapes in a string literal (a key
 * in a JSON or Python string). A placeholder (`...`) in documentation does not match, so docs that
 * show the format are still indexed.
 */
const PRIVATE_KEY_BLOCK = new RegExp(
  String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----${PAD}${BREAK}(?:${HEADER})*(?:${PAD}${BREAK})?${PAD}[A-Za-z0-9+/=]{40,}`,
);

/**
 * True when `text` holds a private key. Such files are left out of the index (reason `secret`) and
 * refused by `get_file_context`: a key in a search index is one more copy of it, served to every
 * client of the index. Files named like secrets (`.env`, `id_rsa`, `*.pem`) are already excluded by
 * the default ignore rules; this catches keys committed under other names. The indexer and the file
 * reader share this one detector, so both leave out the same files.
 */
export function holdsPrivateKey(text: string): boolean {
  return text.includes('PRIVATE KEY') && PRIVATE_KEY_BLOCK.test(text);
}

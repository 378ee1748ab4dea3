// The call that derives the playground's id in each language, generated from its inputs
// and written the way each binding's README writes it. A secret never appears in the
// code: each snippet reads it from SAMEKEY_SECRET (or says where it comes from).

/** The languages, in the order of the home page's tabs (their keys are shared with it). */
export const LANGUAGES = [
  ['python', 'Python'], ['node', 'TypeScript / Node'], ['browser', 'Browser (WASM)'], ['go', 'Go'],
  ['rust', 'Rust'], ['kotlin', 'Kotlin'], ['java', 'Java'], ['swift', 'Swift'], ['sql', 'SQL (PostgreSQL)'],
  ['cli', 'CLI'],
];

// JSON's string escapes are valid Python, JavaScript, Go, Kotlin and Java escapes.
const json = (s) => JSON.stringify(s);
const kotlin = (s) => json(s).replace(/\$/g, '\\$');

// Rust and Swift write other characters as \u{...}.
function braced(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f || (c >= 0xd800 && c <= 0xdfff)) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

const sql = (s) => `'${s.replace(/'/g, "''")}'`;
const shell = (s) => (/^[A-Za-z0-9_.,:@%+=/-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
const upper = (scheme) => scheme.toUpperCase();

// Each language's line comment: a call whose milliseconds read as seconds says so.
const COMMENT = { python: '#', node: '//', browser: '//', go: '//', rust: '//', kotlin: '//', java: '//',
  swift: '//', sql: '--', cli: '#' };

/**
 * The snippets for `input`: { fields: string[], time: { ms } | { text }, namespace, scheme,
 * keyed, seconds }, `time.text` being RFC 3339 text the core accepted and `seconds` true
 * when `time.ms` reads as seconds. Returns [[key, code], ...].
 */
export function calls({ fields, time, namespace, scheme, keyed, seconds = false }) {
  const ms = time.text === undefined;
  const ns = namespace !== '';
  const v1 = scheme === 'v1';
  const list = (quote, sep = ', ') => fields.map(quote).join(sep);
  const snippets = {};

  snippets.python = [
    ...(keyed ? ['import os', ''] : []),
    'import samekey',
    '',
    `post_id = samekey.derive_ulid(`,
    `    [${list(json)}],`,
    `    ${ms ? `time_ms=${time.ms}` : `time=${json(time.text)}`},`,
    ...(ns ? [`    namespace=${json(namespace)},`] : []),
    ...(v1 ? [] : [`    scheme=${json(scheme)},`]),
    ...(keyed ? ['    secret=os.environb[b"SAMEKEY_SECRET"],'] : []),
    ')',
    'print(post_id)',
  ];

  const jsOptions = [
    ms ? `timeMs: ${time.ms}` : `time: ${json(time.text)}`,
    ...(ns ? [`namespace: ${json(namespace)}`] : []),
    ...(v1 ? [] : [`scheme: ${json(scheme)}`]),
  ];
  snippets.node = [
    "import * as samekey from 'samekey';",
    '',
    `const id = samekey.deriveUlid([${list(json)}], {`,
    ...jsOptions.map((o) => `  ${o},`),
    ...(keyed ? ['  secret: Buffer.from(process.env.SAMEKEY_SECRET),'] : []),
    '});',
    'console.log(id.toString());',
  ];
  snippets.browser = [
    "import { init, deriveUlid } from 'samekey-wasm';",
    '',
    ...(keyed ? ['// SECRET: the secret\'s text, from wherever your app keeps it (never in page source).'] : []),
    'await init();',
    `const id = deriveUlid([${list(json)}], {`,
    ...jsOptions.map((o) => `  ${o},`),
    ...(keyed ? ['  secret: new TextEncoder().encode(SECRET),'] : []),
    '});',
    'console.log(id.toString());',
  ];

  const goOptions = [
    ...(ns ? [`Namespace: ${json(namespace)}`] : []),
    ...(v1 ? [] : [`Scheme: samekey.${upper(scheme)}`]),
    ...(keyed ? ['Secret: []byte(os.Getenv("SAMEKEY_SECRET"))'] : []),
  ];
  snippets.go = [
    'package main',
    '',
    'import (',
    '\t"fmt"',
    '\t"log"',
    ...(keyed ? ['\t"os"'] : []),
    '',
    '\tsamekey "github.com/samekey/samekey/bindings/go"',
    ')',
    '',
    'func main() {',
    ...(ms ? [`\tpublished := int64(${time.ms})`] : [
      `\tpublished, err := samekey.ParseRFC3339(${json(time.text)})`,
      '\tif err != nil {',
      '\t\tlog.Fatal(err)',
      '\t}',
    ]),
    `\tid, err := samekey.DeriveULID(published, samekey.Options{${goOptions.join(', ')}}, samekey.Fields(${list(json)})...)`,
    '\tif err != nil {',
    '\t\tlog.Fatal(err)',
    '\t}',
    '\tfmt.Println(id)',
    '}',
  ];

  snippets.rust = [
    `use samekey::{derive_ulid${ms ? '' : ', parse_rfc3339'}, Scheme};`,
    '',
    'fn main() -> Result<(), samekey::Error> {',
    ms ? `    let published = ${time.ms};` : `    let published = parse_rfc3339(${braced(time.text)})?;`,
    ...(keyed ? ['    let secret = std::env::var("SAMEKEY_SECRET").expect("SAMEKEY_SECRET is set");'] : []),
    `    let id = derive_ulid(Scheme::${upper(scheme)}, published, ${braced(namespace)}, &[${list(braced)}], ${keyed ? 'Some(secret.as_bytes())' : 'None'})?;`,
    '    println!("{id}");',
    '    Ok(())',
    '}',
  ];

  // Instant.parse takes only UTC text before Java 12: the same instant, written in UTC.
  const utc = new Date(time.ms).toISOString().replace('.000Z', 'Z');
  const instant = ms ? `Instant.ofEpochMilli(${time.ms}L)` : `Instant.parse(${json(utc)})`;
  const kotlinArgs = [
    ...(ns ? [`namespace = ${kotlin(namespace)}`] : []),
    ...(v1 ? [] : [`scheme = Scheme.${upper(scheme)}`]),
    ...(keyed ? ['secret = System.getenv("SAMEKEY_SECRET").toByteArray()'] : []),
  ];
  snippets.kotlin = [
    ...(v1 ? [] : ['import io.github.samekey.Scheme']),
    'import io.github.samekey.deriveUlid',
    'import java.time.Instant',
    '',
    'fun main() {',
    `    val id = deriveUlid(${[instant, list(kotlin), ...kotlinArgs].join(', ')})`,
    '    println(id)',
    '}',
  ];

  snippets.java = [
    'import io.github.samekey.Scheme;',
    'import io.github.samekey.Ulid;',
    'import io.github.samekey.UlidDeriver;',
    ...(keyed ? ['import java.nio.charset.StandardCharsets;'] : []),
    'import java.time.Instant;',
    '',
    'public class Main {',
    '    public static void main(String[] args) {',
    ...(keyed ? ['        byte[] secret = System.getenv("SAMEKEY_SECRET").getBytes(StandardCharsets.UTF_8);'] : []),
    `        try (UlidDeriver deriver = new UlidDeriver(${json(namespace)}, Scheme.${upper(scheme)}${keyed ? ', secret' : ''})) {`,
    `            Ulid id = deriver.derive(${instant}, ${list(json)});`,
    '            System.out.println(id);',
    '        }',
    '    }',
    '}',
  ];

  snippets.swift = [
    'import Foundation',
    'import Samekey',
    '',
    ms ? `let published: Int64 = ${time.ms}` : `let published = try milliseconds(rfc3339: ${braced(time.text)})`,
    `let id = try Ulid(deriving: [${list(braced)}], milliseconds: published${ns ? `, namespace: ${braced(namespace)}` : ''}${v1 ? '' : `, scheme: .${scheme}`}${keyed ? ',' : ')'}`,
    ...(keyed ? ['                  secret: Data(ProcessInfo.processInfo.environment["SAMEKEY_SECRET"]!.utf8))'] : []),
    'print(id)',
  ];

  snippets.sql = [
    'CREATE EXTENSION IF NOT EXISTS samekey;',
    ...(keyed ? ['-- $1: the secret as bytea, bound by your driver (a secret in query text stays in logs).'] : []),
    `SELECT ${ms ? 'samekey_ulid_ms' : 'samekey_ulid'}(${sql(scheme)}, ${ms ? time.ms : sql(time.text)}, ${sql(namespace)}, ARRAY[${list(sql)}]${keyed ? ', $1' : ''});`,
  ];

  snippets.cli = [
    [
      'samekey ulid',
      ms ? `--ms ${time.ms}` : `--time ${shell(time.text)}`,
      ...(ns ? [`--namespace ${shell(namespace)}`] : []),
      ...(v1 ? [] : [`--scheme ${scheme}`]),
      ...(keyed ? ['--secret-file <(printf %s "$SAMEKEY_SECRET")'] : []),
      ...(fields.some((f) => f.startsWith('-')) ? ['--'] : []),
      list(shell, ' '),
    ].join(' '),
  ];

  const note = seconds
    ? [`${time.ms} reads as seconds: this is the id of ${new Date(time.ms).toISOString()}; `
      + `for ${new Date(time.ms * 1000).toISOString()}, write ${time.ms * 1000}.`]
    : [];
  return LANGUAGES.map(([key]) => [key, [...note.map((n) => `${COMMENT[key]} ${n}`), ...snippets[key]].join('\n')]);
}

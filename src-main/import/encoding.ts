/**
 * The text encoding of a bank file (docs/decisions/0060-import-parsers.md). Banks export UTF-8 (with or without a
 * byte-order mark), Windows-1252 or ISO-8859-1; the three are told apart from the bytes alone, deterministically:
 * - a BOM names UTF-8 or UTF-16;
 * - bytes that decode as strict UTF-8 are UTF-8 (a single-byte text with any byte ≥ 0x80 almost never forms valid
 *   UTF-8 sequences: "Ã¼"-style pairs do not occur in bank exports);
 * - otherwise single-byte: Windows-1252 when any byte is in 0x80–0x9F (there it holds €, „, –, ™…; in ISO-8859-1 those
 *   are C1 control codes no text uses), else ISO-8859-1 (the two agree on every other byte).
 * A statistical detector (chardet) guesses among dozens of code pages and can call a German export Windows-1250; for
 * these three, the rule above is exact.
 * A format may name its own encoding (an OFX header's CHARSET, an XML declaration): that wins when it is one of these.
 */
import type { TextEncoding } from '../../src-shared/domain/import/types';

export type { TextEncoding };

export interface Decoded {
  text: string;
  encoding: TextEncoding;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function detectEncoding(bytes: Uint8Array): TextEncoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'UTF-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16LE';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16BE';
  let high = false;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      high = true;
      break;
    }
  }
  if (!high) return 'UTF-8';
  try {
    utf8.decode(bytes);
    return 'UTF-8';
  } catch {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b >= 0x80 && b <= 0x9f) return 'windows-1252';
    }
    return 'ISO-8859-1';
  }
}

/** Decodes with the given encoding; a leading BOM is dropped. */
export function decodeAs(bytes: Uint8Array, encoding: TextEncoding): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text: string;
  switch (encoding) {
    case 'UTF-8':
      text = new TextDecoder('utf-8').decode(bytes);
      break;
    case 'UTF-16LE':
      text = new TextDecoder('utf-16le').decode(bytes);
      break;
    case 'UTF-16BE':
      text = new TextDecoder('utf-16be').decode(bytes);
      break;
    case 'windows-1252':
      text = new TextDecoder('windows-1252').decode(bytes);
      break;
    case 'ISO-8859-1':
      // Node's latin1 is the true ISO-8859-1 (WHATWG maps the label to Windows-1252).
      text = buf.toString('latin1');
      break;
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** An encoding name as a file may declare it (OFX CHARSET, XML encoding=…), when it is one we read. */
export function declaredEncoding(name: string | undefined): TextEncoding | undefined {
  const n = name?.trim().toLowerCase().replace(/[_\s]/g, '-');
  if (!n) return undefined;
  if (n === 'utf-8' || n === 'utf8') return 'UTF-8';
  if (n === '1252' || n === 'windows-1252' || n === 'cp1252') return 'windows-1252';
  if (n === 'iso-8859-1' || n === 'latin1' || n === 'latin-1' || n === 'iso8859-1') return 'ISO-8859-1';
  return undefined;
}

export function decode(bytes: Uint8Array, declared?: TextEncoding): Decoded {
  const detected = detectEncoding(bytes);
  // A declaration never overrides what the bytes prove: a file that is valid UTF-8 with non-ASCII text stays UTF-8.
  const encoding = declared && !(detected === 'UTF-8' && declared !== 'UTF-8' && hasHighBytes(bytes)) ? declared : detected;
  return { text: decodeAs(bytes, encoding), encoding };
}

function hasHighBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

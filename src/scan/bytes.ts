// Files judged by their bytes, not their names: native executables (ELF, PE, Mach-O) and archives, found
// by their magic numbers (file-type), and whether a zip is password-protected (the encryption bit of its
// entries' general-purpose flags). Anything else with a NUL byte or invalid UTF-8 is opaque data.
import { fileTypeFromBuffer } from 'file-type';

export type BytesKind = 'executable' | 'archive' | 'encrypted-archive' | 'data' | 'text';

const EXECUTABLES = new Set(['elf', 'exe', 'macho', 'dll', 'class', 'dex', 'wasm']);
const ARCHIVES = new Set([
  'zip',
  'tar',
  'gz',
  'bz2',
  '7z',
  'rar',
  'xz',
  'zst',
  'cab',
  'deb',
  'rpm',
  'ar',
  'lz',
  'lzh',
  'arj',
  'cpio',
  'jar',
  'apk',
  'dmg',
  'iso',
  'msi',
  'lz4',
  'Z',
]);
const MACHO = [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe];

/** Whether any local entry of a zip is encrypted. */
function zipEncrypted(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Local file headers (PK\3\4): the flags are at offset 6; walk the headers as far as they chain.
  for (let at = 0; at + 30 <= bytes.length;) {
    if (view.getUint32(at, true) !== 0x04034b50) break;
    if ((view.getUint16(at + 6, true) & 1) === 1) return true;
    const size = view.getUint32(at + 18, true);
    const next = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true) + size;
    if (size === 0 || next <= at) break;
    at = next;
  }
  return false;
}

function opaque(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** What a file's bytes are. */
export async function bytesKind(bytes: Uint8Array): Promise<{ kind: BytesKind; type: string | null }> {
  if (bytes.length >= 4) {
    const magic = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, false);
    if (MACHO.includes(magic) && !(magic === 0xcafebabe && bytes.length > 8 && bytes[7]! > 30))
      return { kind: 'executable', type: 'macho' };
  }
  const type = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (type && EXECUTABLES.has(type.ext)) return { kind: 'executable', type: type.ext };
  if (type && ARCHIVES.has(type.ext))
    return { kind: type.ext === 'zip' && zipEncrypted(bytes) ? 'encrypted-archive' : 'archive', type: type.ext };
  if (opaque(bytes)) return { kind: 'data', type: type?.ext ?? null };
  return { kind: 'text', type: null };
}

// A skill version fetched and verified before anything is written: its file list held to the one rule for
// bundle paths (domain/bundle-paths.ts), its SKILL.md or archive checked against the version digest, every file
// against its own digest and size, and every download read with a byte cap. "Verified" means checked
// against a digest the registry gave, never less.
import { installablePaths } from '../../domain/bundle-paths.js';
import {
  MAX_BUNDLE_BYTES,
  MAX_BUNDLE_FILES,
  MAX_FILE_BYTES,
  normalizeBundlePath,
  versionDigest,
} from '../../domain/bundles.js';
import type { Skill } from '../../domain/model.js';
import { CommandFailed, type CommandContext } from '../context.js';
import {
  archiveCap,
  expectedHex,
  MAX_SKILL_MD_BYTES,
  sha256Hex,
  unpackArchive,
  verifyDigest,
  type ListedFile,
} from './archive.js';
import type { FileToWrite } from './folder.js';
import { FOLDER_NAME } from './lockfile.js';

/** A skill as a registry answers it: older registries may give no digest or file list. */
export type ServedSkill = Omit<Skill, 'digest' | 'files'> & { digest?: string; files?: Partial<ListedFile>[] };

export interface InstalledFile {
  path: string;
  size: number;
  sha256: string;
  /** Checked against a digest the registry gave (false: it gave none for this file). */
  verified: boolean;
}

export interface Download {
  skill: ServedSkill;
  files: FileToWrite[];
  report: InstalledFile[];
  /** The version digest of the downloaded files (the registry's, when it gave one: checked equal). */
  digest: string;
}

const segment = encodeURIComponent;

/** The skill at `version`, or at its latest version. */
export async function fetchSkill(ctx: CommandContext, id: string, version?: string): Promise<ServedSkill> {
  const path =
    version === undefined ? `/v1/skills/${segment(id)}` : `/v1/skills/${segment(id)}/versions/${segment(version)}`;
  const { data } = await ctx.client.get<{ data: ServedSkill }>(path);
  if (!new RegExp(FOLDER_NAME).test(data.name) || data.name.length > 64) {
    throw new CommandFailed(
      `the skill's name ${JSON.stringify(data.name)} is not a safe folder name; nothing was written`,
      'UNSAFE_PATH',
    );
  }
  return data;
}

/** The file list, held to the rules every installation must meet before anything is downloaded. */
function checkedList(skill: ServedSkill): ListedFile[] {
  const listed = (skill.files ?? []).filter((file) => file.path !== 'SKILL.md');
  for (const file of listed) {
    const normal = typeof file.path === 'string' ? normalizeBundlePath(file.path) : { error: 'is missing' };
    if ('error' in normal || normal.path !== file.path) {
      throw new CommandFailed(
        `the registry listed a file path that is not safe to write: ${JSON.stringify(file.path)}; nothing was written`,
        'UNSAFE_PATH',
      );
    }
    if (!Number.isSafeInteger(file.size) || file.size! < 0 || typeof file.digest !== 'string') {
      throw new CommandFailed(
        `the registry listed ${file.path} without a size and digest, so it cannot be checked; nothing was written`,
        'INCOMPLETE_FILE_LIST',
      );
    }
  }
  if (listed.length > MAX_BUNDLE_FILES)
    throw new CommandFailed(
      `the registry lists ${listed.length} files; a bundle has at most ${MAX_BUNDLE_FILES}; nothing was written`,
      'TOO_LARGE',
    );
  const total = listed.reduce((sum, file) => sum + file.size!, 0);
  const large = listed.find((file) => file.size! > MAX_FILE_BYTES);
  if (large || total > MAX_BUNDLE_BYTES) {
    const what = large
      ? `${large.path} as ${large.size} bytes (a file has at most ${MAX_FILE_BYTES})`
      : `${total} bytes of files (a bundle has at most ${MAX_BUNDLE_BYTES})`;
    throw new CommandFailed(`the registry lists ${what}; nothing was written`, 'TOO_LARGE');
  }
  const refusal = installablePaths(listed.map((file) => file.path!));
  if (refusal)
    throw new CommandFailed(
      `the registry listed a file that must not be installed: ${refusal.message} (rule ${refusal.rule}); nothing was written`,
      'UNSAFE_PATH',
    );
  return listed as ListedFile[];
}

/** Every file of the version, downloaded and verified, in memory (a bundle is at most about 1 MiB). */
export async function downloadVersion(ctx: CommandContext, skill: ServedSkill): Promise<Download> {
  const listed = checkedList(skill);
  const skillMd = new Uint8Array(Buffer.from(skill.skill_md_content, 'utf8'));
  if (skillMd.byteLength > MAX_SKILL_MD_BYTES)
    throw new CommandFailed(
      `the SKILL.md the registry sent is larger than ${MAX_SKILL_MD_BYTES} bytes; nothing was written`,
      'TOO_LARGE',
    );
  if (listed.length === 0) {
    // A skill without files is its SKILL.md, whose digest is the version digest.
    if (skill.digest !== undefined) verifyDigest(skillMd, skill.digest, `SKILL.md of version ${skill.version}`);
    const report = [
      { path: 'SKILL.md', size: skillMd.byteLength, sha256: sha256Hex(skillMd), verified: skill.digest !== undefined },
    ];
    return { skill, files: [{ path: 'SKILL.md', bytes: skillMd }], report, digest: `sha256:${report[0]!.sha256}` };
  }
  // A bundle is fetched as its version's archive, whose digest is the version digest.
  const url = `/v1/skills/${segment(skill.id)}/versions/${segment(skill.version)}/archive.zip`;
  const cap = archiveCap(skillMd.byteLength, listed);
  const archive = new Uint8Array(await ctx.client.bytes(url, cap, `the archive of version ${skill.version}`));
  if (skill.digest !== undefined) verifyDigest(archive, skill.digest, `the archive of version ${skill.version}`);
  const unpacked = unpackArchive(archive, skillMd.byteLength, listed);
  if (sha256Hex(unpacked.get('SKILL.md')!) !== sha256Hex(skillMd)) {
    throw new CommandFailed(
      `the archive's SKILL.md differs from the one the registry lists for version ${skill.version}; nothing was written`,
      'DIGEST_MISMATCH',
    );
  }
  const files = [...unpacked].map(([path, bytes]) => ({ path, bytes }));
  // What the installed folder's digest will be: an archive other than the registry's own canonical one for
  // these files would pin a digest that no installation can ever show again.
  const digest = versionDigest(
    skill.skill_md_content,
    files.filter((file) => file.path !== 'SKILL.md').map(({ path, bytes }) => ({ path, content: bytes })),
  );
  if (skill.digest !== undefined && digest !== `sha256:${expectedHex(skill.digest, `version ${skill.version}`)}`) {
    throw new CommandFailed(
      `the files of version ${skill.version} have the version digest ${digest}, not the registry's ${skill.digest}; nothing was written`,
      'DIGEST_MISMATCH',
    );
  }
  const report = files.map(({ path, bytes }) => ({
    path,
    size: bytes.byteLength,
    sha256: sha256Hex(bytes),
    // SKILL.md is as checked as the archive; each other file was checked against its own digest.
    verified: path === 'SKILL.md' ? skill.digest !== undefined : true,
  }));
  return { skill, files, report, digest };
}

// Paths that can be installed everywhere: the one rule, at publication and at install, for a bundle's
// file paths (names Linux, macOS and Windows can all create; no version-control metadata or tool
// configuration that runs code; no collisions by letter case; no file where a folder is needed).

/** A file or folder name longer than this many bytes (UTF-8) cannot be created on Linux or macOS. */
export const MAX_SEGMENT_BYTES = 255;

/** Device names Windows reserves in every folder, with any extension (`CON`, `con.txt`, `COM1.md`). */
const WINDOWS_RESERVED =
  /^(?:con|prn|aux|nul|com[0-9\u00B9\u00B2\u00B3]|lpt[0-9\u00B9\u00B2\u00B3]|conin\$|conout\$|clock\$)(?:\..*)?$/;

/**
 * Names a tool runs code from when it works in the folder that holds them, so installing them would let a
 * publisher run commands on the installer's machine (`git status` in a folder with a `.git` runs its
 * `core.fsmonitor`). Compared case-insensitively, as macOS and Windows find them. What is left out, and why,
 * is in docs/security.md (`.husky`, `.github/workflows`, `.devcontainer`, `.gitattributes` are inert there).
 */
const VCS_METADATA = new Set([
  '.git',
  'git~1',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  'cvs',
  '.jj',
  '.sl',
  '.pijul',
  '.fslckout',
  '_fossil_',
]);
const TOOL_CONFIG: Readonly<Record<string, string>> = {
  '.envrc': 'direnv runs it as shell code when a shell enters the folder',
  '.vscode':
    'VS Code runs its tasks when the folder is opened (runOn: folderOpen) and starts the programs its settings name',
  '.idea': 'JetBrains IDEs run its startup tasks and run configurations',
};
/** Claude Code settings run shell commands (hooks, status line, key helper) for a session started in the folder. */
const CLAUDE_SETTINGS = new Set(['settings.json', 'settings.local.json']);

/** Case folding for collisions: names that macOS (APFS, HFS+) or Windows (NTFS) could take for one another. */
export const foldPath = (path: string) => path.normalize('NFC').toUpperCase().toLowerCase();

export interface PathRefusal {
  /** Which of the paths given. */
  index: number;
  /** The rule broken: reserved_name, trailing_dot, name_too_long, vcs_metadata, tool_config, case_collision, file_folder_clash. */
  rule: string;
  /** What is wrong, naming the path (without saying where it was listed). */
  message: string;
}

/** What keeps one normalized path from being installed on some system, or null. */
function pathProblem(path: string): { rule: string; message: string } | null {
  const segments = path.split('/');
  for (const [i, segment] of segments.entries()) {
    const folded = foldPath(segment);
    if (VCS_METADATA.has(folded)) {
      return {
        rule: 'vcs_metadata',
        message: `is version-control metadata (${segment}): a VCS run in the installed folder would run the publisher's hooks and configured commands`,
      };
    }
    const tool = TOOL_CONFIG[folded];
    if (tool) return { rule: 'tool_config', message: `is tool configuration that runs code (${segment}: ${tool})` };
    if (folded === '.claude' && i === segments.length - 2 && CLAUDE_SETTINGS.has(foldPath(segments[i + 1]!))) {
      return {
        rule: 'tool_config',
        message: `is tool configuration that runs code (Claude Code settings run their hooks' shell commands)`,
      };
    }
    if (WINDOWS_RESERVED.test(folded))
      return {
        rule: 'reserved_name',
        message: `uses ${JSON.stringify(segment)}, a device name Windows reserves in every folder`,
      };
    if (/[. ]$/.test(segment))
      return {
        rule: 'trailing_dot',
        message: `has a name ending in a dot or space (${JSON.stringify(segment)}), which Windows drops`,
      };
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      return {
        rule: 'name_too_long',
        message: `has a name of more than ${MAX_SEGMENT_BYTES} bytes (UTF-8), more than Linux and macOS allow`,
      };
    }
  }
  return null;
}

/**
 * The one rule, at publication and at install, for the paths of a bundle (normalized, SKILL.md aside): each
 * can be created on Linux, macOS and Windows (no reserved device names, no names ending in a dot or space,
 * names of at most 255 bytes), none is version-control metadata or tool configuration that runs code, no two
 * name the same file where letter case does not count, and no path is a file where another needs a folder
 * (`a` beside `a/b`, `SKILL.md/x`). Every path is checked against SKILL.md, which sits at the top.
 */
export function installablePaths(paths: readonly string[]): PathRefusal | null {
  const files = new Map<string, string>([['skill.md', 'SKILL.md']]);
  const folders = new Map<string, string>();
  for (const [index, path] of paths.entries()) {
    const problem = pathProblem(path);
    if (problem) return { index, rule: problem.rule, message: `${JSON.stringify(path)} ${problem.message}` };
    const folded = foldPath(path);
    const clash = files.get(folded);
    if (clash !== undefined) {
      const message =
        clash === 'SKILL.md'
          ? `${JSON.stringify(path)} collides with SKILL.md (SKILL.md is given as skill_md_content, not as a file)`
          : `${JSON.stringify(path)} collides with ${JSON.stringify(clash)}`;
      return { index, rule: 'case_collision', message };
    }
    const asFolder = folders.get(folded);
    if (asFolder !== undefined)
      return {
        index,
        rule: 'file_folder_clash',
        message: `${JSON.stringify(path)} is a file, but ${JSON.stringify(asFolder)} needs a folder of that name`,
      };
    const parts = path.split('/');
    for (let end = 1; end < parts.length; end++) {
      const folder = parts.slice(0, end).join('/');
      const asFile = files.get(foldPath(folder));
      if (asFile !== undefined)
        return {
          index,
          rule: 'file_folder_clash',
          message: `${JSON.stringify(path)} needs a folder ${JSON.stringify(folder)}, but ${JSON.stringify(asFile)} is a file`,
        };
      if (!folders.has(foldPath(folder))) folders.set(foldPath(folder), path);
    }
    files.set(folded, path);
  }
  return null;
}

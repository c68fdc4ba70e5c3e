// Where a URL or address leads: a well-known vendor over HTTPS, an untrusted place (IP literals, paste
// sites, URL shorteners, tunnels, chat and request-bin webhooks), or somewhere unknown. Rules raise or
// lower their severity by it: the same `curl … | sh` is at most medium from a vendor, critical from a paste.
export type Destination = 'vendor' | 'unknown' | 'untrusted';

const UNTRUSTED_HOSTS = [
  // paste sites and anonymous file drops
  'pastebin.com',
  'paste.ee',
  'hastebin.com',
  'hastebin.skyra.pw',
  'ghostbin.com',
  'ghostbin.co',
  'rentry.co',
  'rentry.org',
  'paste.rs',
  'dpaste.com',
  'dpaste.org',
  'termbin.com',
  'controlc.com',
  'justpaste.it',
  'privatebin.net',
  'pastes.io',
  'paste.mozilla.org',
  'ix.io',
  'sprunge.us',
  '0x0.st',
  'transfer.sh',
  'file.io',
  'tmpfiles.org',
  'catbox.moe',
  'files.catbox.moe',
  'litter.catbox.moe',
  'anonfiles.com',
  'gofile.io',
  'temp.sh',
  'bashupload.com',
  'oshi.at',
  'paste.c-net.org',
  'pastebin.pl',
  'glot.io',
  // URL shorteners
  'bit.ly',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'is.gd',
  'v.gd',
  'cutt.ly',
  'rebrand.ly',
  'ow.ly',
  'shorturl.at',
  'rb.gy',
  'tiny.cc',
  'buff.ly',
  'bl.ink',
  't.ly',
  'shorturl.gg',
  's.id',
  'lnkd.in',
  'qrco.de',
  // tunnels and dynamic DNS
  'ngrok.io',
  'ngrok-free.app',
  'ngrok.app',
  'ngrok.dev',
  'trycloudflare.com',
  'loca.lt',
  'localtunnel.me',
  'serveo.net',
  'localhost.run',
  'lhr.life',
  'pagekite.me',
  'bore.pub',
  'pinggy.io',
  'pinggy.link',
  'duckdns.org',
  'no-ip.org',
  'ddns.net',
  'hopto.org',
  'zapto.org',
  'serveousercontent.com',
  'telebit.cloud',
  // request bins and out-of-band collectors
  'webhook.site',
  'requestbin.com',
  'requestbin.net',
  'pipedream.net',
  'm.pipedream.net',
  'beeceptor.com',
  'hookbin.com',
  'requestcatcher.com',
  'interact.sh',
  'oast.fun',
  'oast.me',
  'oast.pro',
  'oast.live',
  'oast.site',
  'oast.online',
  'burpcollaborator.net',
  'canarytokens.com',
  'dnslog.cn',
  'ceye.io',
  'webhook.cool',
];

/** Chat and bot webhooks: the host with the path that makes it one. */
const WEBHOOK_PATHS: [RegExp, RegExp][] = [
  [/(^|\.)discord(app)?\.com$/, /^\/api\/webhooks\//],
  [/^hooks\.slack\.com$/, /^\//],
  [/^api\.telegram\.org$/, /^\/bot/],
  [/(^|\.)webhook\.office\.com$/, /^\//],
];

const VENDOR_HOSTS = [
  'astral.sh',
  'sh.rustup.rs',
  'static.rust-lang.org',
  'get.docker.com',
  'download.docker.com',
  'deb.nodesource.com',
  'rpm.nodesource.com',
  'bun.sh',
  'deno.land',
  'deno.com',
  'get.pnpm.io',
  'nodejs.org',
  'brew.sh',
  'install.python-poetry.org',
  'python.org',
  'www.python.org',
  'pypi.org',
  'files.pythonhosted.org',
  'registry.npmjs.org',
  'npmjs.com',
  'www.npmjs.com',
  'github.com',
  'objects.githubusercontent.com',
  'cli.github.com',
  'get.helm.sh',
  'dl.k8s.io',
  'awscli.amazonaws.com',
  'sdk.cloud.google.com',
  'dl.google.com',
  'packages.cloud.google.com',
  'aka.ms',
  'packages.microsoft.com',
  'dot.net',
  'dotnet.microsoft.com',
  'ollama.com',
  'fly.io',
  'vercel.com',
  'cli.supabase.com',
  'supabase.com',
  'claude.ai',
  'anthropic.com',
  'opencode.ai',
  'mise.run',
  'mise.jdx.dev',
  'starship.rs',
  'get.sdkman.io',
  'sh.vector.dev',
  'pkgx.sh',
  'tailscale.com',
  'raw.githubusercontent.com',
  'cursor.com',
  'gitlab.com',
  'hashicorp.com',
  'releases.hashicorp.com',
  'get.volta.sh',
  'fnm.vercel.app',
  'volta.sh',
  'foundry.paradigm.xyz',
  'sh.flox.dev',
  'install.determinate.systems',
  'nixos.org',
  'releases.nixos.org',
  'cargo-bins.github.io',
  'pyenv.run',
  'get.rvm.io',
  'dist.ipfs.tech',
  'spacetimedb.com',
  'install.sandstorm.io',
  'get.k3s.io',
  'get.jenkins.io',
  'apt.releases.hashicorp.com',
  'download.opensuse.org',
  'repo.anaconda.com',
  'micro.mamba.pm',
  'pixi.sh',
  'ziglang.org',
  'go.dev',
  'golang.org',
  'dl.flathub.org',
  'cdn.jsdelivr.net',
  'unpkg.com',
  'api.github.com',
  'codeload.github.com',
  'release-assets.githubusercontent.com',
  'gh.io',
  'railway.com',
  'railway.app',
  'cli.doppler.com',
  'get.acme.sh',
  'cloudflare.com',
  'pkg.cloudflare.com',
  'developers.cloudflare.com',
];

/** Owners on raw.githubusercontent.com whose installers count as a vendor's. */
const VENDOR_GITHUB_OWNERS = new Set(
  [
    'homebrew',
    'nvm-sh',
    'ohmyzsh',
    'rust-lang',
    'astral-sh',
    'denoland',
    'pnpm',
    'oven-sh',
    'cli',
    'docker',
    'kubernetes',
    'helm',
    'nodesource',
    'microsoft',
    'google',
    'aws',
    'awslabs',
    'anthropics',
    'openai',
    'modelcontextprotocol',
    'python-poetry',
    'pyenv',
    'golang',
    'hashicorp',
    'tj',
    'junegunn',
    'starship',
    'jdx',
    'volta-cli',
    'schniz',
    'sdkman',
    'cargo-bins',
    'foundry-rs',
    'prefix-dev',
    'mamba-org',
    'conda',
    'vercel',
    'supabase',
    'cloudflare',
    'github',
    'facebook',
    'meta-llama',
    'huggingface',
    'ollama',
    'atuinsh',
    'zellij-org',
    'neovim',
    'wasmerio',
    'wasmtime',
    'bytecodealliance',
    'tailscale',
    'nix-community',
    'nektos',
    'jesseduffield',
    'charmbracelet',
    'sharkdp',
    'burntsushi',
    'ajeetdsouza',
    'dandavison',
    'eza-community',
  ].map((o) => o.toLowerCase()),
);

const UNTRUSTED = new Set(UNTRUSTED_HOSTS);
const VENDORS = new Set(VENDOR_HOSTS);

const withParents = (host: string): string[] => {
  const parts = host.split('.');
  return parts.slice(0, -1).map((_, i) => parts.slice(i).join('.'));
};

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipClass(host: string): Destination | null {
  const m = IPV4.exec(host);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if ([m[1], m[2], m[3], m[4]].some((o) => Number(o) > 255)) return null;
    // Loopback and private networks are the user's own machine or network.
    if (a === 127 || a === 10 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31))
      return 'unknown';
    return 'untrusted';
  }
  if (host.startsWith('[') || /^[0-9a-f:]+:[0-9a-f:]*$/i.test(host)) return host === '[::1]' ? 'unknown' : 'untrusted';
  return null;
}

/** Where one URL (or a bare host with a path) leads. */
export function classifyUrl(url: string): Destination {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/\s:?#]+|\[[^\]]+\])(?::\d+)?([^\s?#]*)/i.exec(url.trim());
  if (!m) return 'unknown';
  const scheme = (m[1] ?? '').toLowerCase();
  const host = m[2]!.toLowerCase().replace(/\.$/, '');
  const path = m[3] ?? '';
  const ip = ipClass(host);
  if (ip) return ip;
  // A documentation address (`https://webhook.site/<your-id>`, `…/bot${TOKEN}/…`): the user's own, to fill in.
  if (PLACEHOLDER.test(path)) return 'unknown';
  const names = withParents(host);
  if (names.some((h) => UNTRUSTED.has(h))) return 'untrusted';
  for (const [h, p] of WEBHOOK_PATHS) if (h.test(host) && p.test(path)) return 'untrusted';
  if (scheme !== 'https') return 'unknown';
  if (host === 'raw.githubusercontent.com' || host === 'github.com' || host === 'gist.githubusercontent.com') {
    const owner = path.split('/')[1]?.toLowerCase() ?? '';
    return host !== 'gist.githubusercontent.com' && VENDOR_GITHUB_OWNERS.has(owner) ? 'vendor' : 'unknown';
  }
  return names.some((h) => VENDORS.has(h)) ? 'vendor' : 'unknown';
}

const URLS =
  /\b(?:https?|ftp|wss?):\/\/[^\s"'>)\]|;`\\]+|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b(?![.\d])|\b(?:[a-z0-9-]+\.)*(?:pastebin\.com|webhook\.site|ngrok(?:-free)?\.(?:io|app)|trycloudflare\.com|discord(?:app)?\.com\/api\/webhooks|hooks\.slack\.com|api\.telegram\.org\/bot|bit\.ly|tinyurl\.com|transfer\.sh|0x0\.st|pipedream\.net)[^\s"'<>)\]}|;`\\]*/gi;

const PLACEHOLDER = /[<{$]|\byour[-_]|x{3,}|\.\.\.|…/i;

const ORDER: Record<Destination, number> = { vendor: 0, unknown: 1, untrusted: 2 };

/** The URLs and addresses in a text. */
export function addressesIn(text: string): string[] {
  return text.match(URLS) ?? [];
}

/** The worst destination among a text's addresses; null when it names none. */
export function worstDestination(text: string): Destination | null {
  let worst: Destination | null = null;
  for (const url of addressesIn(text)) {
    const d = classifyUrl(url);
    if (worst === null || ORDER[d] > ORDER[worst]) worst = d;
    if (worst === 'untrusted') break;
  }
  return worst;
}

// The direction of imports (docs/architecture.md): the doors (REST, MCP, pages, the command line) → services →
// domain rules and the store. Checked in `npm run lint`, so a cycle or an import against the layering fails.
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'modules that import each other, directly or through others',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds pure rules: it imports no other layer of the registry and does no I/O',
      from: { path: '^src/domain/' },
      to: {
        path: [
          '^src/(http|store|service|search|mcp|cli|web)/',
          '^src/config/',
          '^src/(app|main)\\.ts$',
          '^(node:)?(fs|net|http|https|child_process|worker_threads)$',
          '^node_modules/(pg|better-sqlite3|ioredis|fastify)/',
        ],
      },
    },
    {
      name: 'store-stores',
      severity: 'error',
      comment: 'the store imports no door and no service above it',
      from: { path: '^src/store/' },
      to: { path: ['^src/(http|service|mcp|cli|web)/', '^node_modules/fastify/'] },
    },
    {
      name: 'services-serve-every-door',
      severity: 'error',
      comment: 'services import none of the doors that call them',
      from: { path: '^src/service/' },
      to: { path: ['^src/(http|mcp|cli|web)/', '^node_modules/fastify/'] },
    },
    {
      name: 'mcp-is-a-door',
      severity: 'error',
      comment:
        'the MCP server calls services (in process) or the REST API (stdio); it shares only the route schemas with REST',
      from: { path: '^src/mcp/', pathNot: '^src/mcp/http\\.ts$' },
      to: { path: ['^src/(store|web|cli)/', '^src/http/(?!schemas)', '^node_modules/fastify/'] },
    },
    {
      name: 'pages-are-a-door',
      severity: 'error',
      comment: 'pages call services; they never reach the store or another door',
      from: { path: '^src/web/' },
      to: { path: ['^src/(store|mcp|cli)/', '^src/http/(?!schemas)'] },
    },
    {
      name: 'the-command-line-is-a-client',
      severity: 'error',
      comment:
        'the command line talks to a registry over HTTP; only the operator commands run on the server host open the store',
      from: { path: '^src/cli/', pathNot: '^src/cli/(admin-create|backup|restore|ops-command)\\.ts$' },
      to: { path: ['^src/(store|web|service)/', '^src/http/(?!schemas)', '^src/(app|main)\\.ts$'] },
    },
    {
      name: 'the-command-line-reaches-no-server-code',
      severity: 'error',
      comment:
        'whatever the command line loads, statically or by a dynamic import (kreg mcp loads the MCP server), reaches no service, store or page: it is a client of the REST API',
      from: { path: '^src/cli/', pathNot: '^src/cli/(admin-create|backup|restore|ops-command)\\.ts$' },
      to: { path: '^src/(store|web|service)/', reachable: true },
    },
    {
      name: 'mcp-tools-know-no-service',
      severity: 'error',
      comment:
        'the MCP tools and resources are written over a RegistryBackend; only the in-process backend (service-backend.ts) and the HTTP transport call services',
      from: { path: '^src/mcp/', pathNot: '^src/mcp/(http|service-backend)\\.ts$' },
      to: { path: '^src/service/' },
    },
    {
      name: 'search-has-one-entry',
      severity: 'error',
      comment: 'outside src/search/, the search module is imported through its entry, src/search/index.ts, only',
      from: { path: '^src/', pathNot: '^src/search/' },
      to: { path: '^src/search/(?!index\\.ts$)' },
    },
    {
      name: 'search-stands-alone',
      severity: 'error',
      comment: 'the search module knows no store, service or door: the service layer feeds it from the store',
      from: { path: '^src/search/' },
      to: { path: ['^src/(store|service|http|mcp|cli|web|config)/', '^src/(app|main)\\.ts$'] },
    },
    {
      name: 'rest-routes-call-services',
      severity: 'error',
      comment: 'routes validate, call a service and answer; they build no SQL',
      from: { path: '^src/http/' },
      to: { path: ['^src/store/(?!store\\.ts$)', '^src/(mcp|cli|web)/(?!http\\.ts$)'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};

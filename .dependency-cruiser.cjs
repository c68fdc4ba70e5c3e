// The direction of imports (GUIDE.md): HTTP in → services → domain rules and the store. Checked in
// `npm run lint`, so a cycle or an import against the layering fails the build.
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'modules that import each other, directly or through others', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds pure rules: it imports no other layer of the registry and does no I/O',
      from: { path: '^src/domain/' },
      to: { path: ['^src/(http|store|service|search|mcp|cli|web)/', '^src/(config|app|main)\\.ts$', '^(node:)?(fs|net|http|https|child_process|worker_threads)$', '^node_modules/(pg|better-sqlite3|ioredis|fastify)/'] },
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};

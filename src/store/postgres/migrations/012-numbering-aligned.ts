// Migration 12: nothing to change. SQLite's history has two migrations PostgreSQL never needed (an
// agent's origin, and the unit counts it keeps by trigger), so the same change had two numbers; from 13 on
// every change has the same number on both backends, and this one closes the gap.
// Never edit a migration that has shipped: add the next number.
export const name = 'migration numbers aligned with SQLite';

export const sql = 'SELECT 1';

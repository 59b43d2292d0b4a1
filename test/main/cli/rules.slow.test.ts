import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

describe('finops rules and recurring', () => {
  it('adds a rule from a file, previews and runs it, lints, and detects recurring series on demo data', {
    timeout: 240_000,
  }, () => {
    const dir = tmpDir();
    expect(runCli(['demo', '--data-dir', dir, '--team', 'Cli Rules', '--as-of', '2026-10-31']).status).toBe(0);
    const file = path.join(dir, 'rule.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        name: 'Coffee is meals',
        conditions: { field: 'name', op: 'contains', value: 'coffee' },
        actions: [{ type: 'set_note', note: 'coffee run' }],
      }),
    );
    const added = runCli(['rules', 'add', file, '--data-dir', dir, '--team', 'Cli Rules']);
    expect(added.status, added.stderr).toBe(0);
    const rule = JSON.parse(added.stdout) as { id: string };
    const preview = JSON.parse(
      runCli(['rules', 'dry-run', rule.id, '--data-dir', dir, '--team', 'Cli Rules', '--start', '2026-09-01']).stdout,
    );
    expect(preview.dryRun).toBe(true);
    expect(preview.changed).toBeGreaterThan(0);
    const ran = JSON.parse(
      runCli(['rules', 'run', rule.id, '--data-dir', dir, '--team', 'Cli Rules', '--start', '2026-09-01']).stdout,
    );
    expect(ran.changed).toBe(preview.changed);
    const again = JSON.parse(
      runCli(['rules', 'dry-run', rule.id, '--data-dir', dir, '--team', 'Cli Rules', '--start', '2026-09-01']).stdout,
    );
    expect(again.changed).toBe(0);
    expect(JSON.parse(runCli(['rules', 'lint', '--data-dir', dir, '--team', 'Cli Rules']).stdout)).toHaveProperty('neverMatched');
    const detect = runCli(['recurring', 'detect', '--data-dir', dir, '--team', 'Cli Rules']);
    expect(detect.stdout).toMatch(/^\d+ active series, \d+ in all; \d+ transactions marked\n$/);

    fs.writeFileSync(file, '{"name": "broken", "conditions": {}}');
    const bad = runCli(['rules', 'add', file, '--data-dir', dir, '--team', 'Cli Rules']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

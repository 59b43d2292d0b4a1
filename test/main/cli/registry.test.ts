import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNamed, loadCommand } from '../../../src-main/cli/registry';

describe('the command registry', () => {
  it.each(COMMANDS.map((c) => [c.name, c]))(
    '%s: its module builds the command of that name, described by the registry',
    async (_, entry) => {
      const cmd = await loadCommand(entry);
      expect(cmd.name()).toBe(entry.name);
      expect(cmd.description()).toBe(entry.description);
      expect(cmd.options.length + cmd.commands.length).toBeGreaterThan(0);
    },
  );

  it('names each command once', () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });

  it.each([
    [['import', '--team', 'Acme', 'file.csv'], 'import'],
    [['help', 'serve'], 'serve'],
    [['--help', 'workflow'], 'workflow'],
    [['--help'], undefined],
    [['help'], undefined],
    [['--version'], undefined],
    [['nope'], undefined],
  ])('finops %j loads %s', (argv, name) => {
    expect(commandNamed(argv)?.name).toBe(name);
  });
});

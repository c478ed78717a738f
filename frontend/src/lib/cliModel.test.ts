import { describe, expect, it } from 'vitest';
import { agentOf, argvModel, commandHasModel, modelFlag, programAgent, splitModel, withCliModel } from './cliModel';

describe('model ids with a CLI model', () => {
  it('splits at the first @, as agentcli.ParseModel', () => {
    expect(splitModel('cli:claude:agent')).toEqual({ mode: 'cli:claude:agent', cli: '' });
    expect(splitModel('cli:claude:agent@opus')).toEqual({ mode: 'cli:claude:agent', cli: 'opus' });
    expect(splitModel('cli:claude:agent@claude-opus-4@20250514')).toEqual({ mode: 'cli:claude:agent', cli: 'claude-opus-4@20250514' });
  });
  it('swaps or drops the model', () => {
    expect(withCliModel('cli:codex:agent@gpt-6-sol', 'gpt-5.6-luna')).toBe('cli:codex:agent@gpt-5.6-luna');
    expect(withCliModel('cli:codex:agent@gpt-6-sol', '')).toBe('cli:codex:agent');
  });
  it('knows the CLI of a mode', () => {
    expect(agentOf('cli:claude')).toBe('claude');
    expect(agentOf('cli:claude:agent@opus')).toBe('claude');
    expect(agentOf('cli:codex:agent')).toBe('codex');
    expect(agentOf('')).toBe('');
    expect(agentOf('openai:gpt')).toBe('');
  });
});

describe('a pane command and its model', () => {
  it('finds the agent a command starts', () => {
    expect(programAgent('claude --resume x')).toBe('claude');
    expect(programAgent('/usr/local/bin/codex')).toBe('codex');
    expect(programAgent('npm run dev')).toBe('');
    expect(programAgent('')).toBe('');
  });
  it('reads the model from argv like board.ArgvModel', () => {
    expect(argvModel(['claude', '--model', 'opus'])).toBe('opus');
    expect(argvModel(['codex', '-m', 'gpt-5.6-luna'])).toBe('gpt-5.6-luna');
    expect(argvModel(['claude', '--model=haiku'])).toBe('haiku');
    expect(argvModel(['claude', '-m', 'x'])).toBe('');
    expect(argvModel(['codex', '--', '-m', 'x'])).toBe('');
    expect(argvModel(['bash'])).toBe('');
    expect(argvModel(undefined)).toBe('');
    expect(argvModel(['/opt/osfoundry/osfoundry-desktop', 'acp', '--model', 'haiku', '--', 'claude-agent-acp'])).toBe('haiku');
    expect(argvModel(['/opt/osfoundry/osfoundry-desktop', 'acp', '--', 'gemini', '--model', 'x'])).toBe('');
  });
  it('says when a command already names its model', () => {
    expect(commandHasModel('claude --model opus')).toBe(true);
    expect(commandHasModel('codex -m gpt-6-sol')).toBe(true);
    expect(commandHasModel('claude --model')).toBe(true);
    expect(commandHasModel('claude')).toBe(false);
  });
  it('builds the flag each CLI takes', () => {
    expect(modelFlag('claude', 'opus')).toEqual(['--model', 'opus']);
    expect(modelFlag('codex', 'gpt-6-sol')).toEqual(['-m', 'gpt-6-sol']);
    expect(modelFlag('codex', '')).toEqual([]);
  });
});

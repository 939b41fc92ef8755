/**
 * Every `control.*` setting, written once: its key, the type of its value, its default and
 * its scope. package.json's `contributes.configuration` declares the same keys with the same
 * types, defaults and scopes (test/unit/settings.test.ts holds the two together); settings.ts
 * reads them through `vscode.workspace.getConfiguration` with these types and defaults.
 *
 * No `vscode` import here, so the unit tests (which run without VS Code) can read the table.
 */

/** package.json's `scope`: where a value may be set, and whether a read names a resource */
export type SettingScope = 'machine' | 'window' | 'resource' | 'language-overridable';

export interface SettingSpec<T, S extends SettingScope = SettingScope> {
  /** the JSON Schema type package.json declares */
  type: 'boolean' | 'integer' | 'number' | 'string' | 'array';
  default: T;
  scope: S;
  /** the values package.json allows, when it lists them */
  enum?: readonly T[];
}

const boolean = <S extends SettingScope>(d: boolean, scope: S): SettingSpec<boolean, S> => ({ type: 'boolean', default: d, scope });
const integer = <S extends SettingScope>(d: number, scope: S): SettingSpec<number, S> => ({ type: 'integer', default: d, scope });
const number = <S extends SettingScope>(d: number, scope: S): SettingSpec<number, S> => ({ type: 'number', default: d, scope });
const string = <S extends SettingScope>(d: string, scope: S): SettingSpec<string, S> => ({ type: 'string', default: d, scope });
const oneOf = <T extends string, S extends SettingScope>(values: readonly T[], d: T, scope: S): SettingSpec<T, S> => ({
  type: 'string',
  default: d,
  scope,
  enum: values,
});
const strings = <S extends SettingScope>(d: string[], scope: S): SettingSpec<readonly string[], S> => ({ type: 'array', default: d, scope });

/** the section every key below lives in: `control.maxStates` is `SETTINGS.maxStates` */
export const SECTION = 'control';

export const SETTINGS = {
  maxStates: integer(200, 'machine'),
  solveTimeoutSeconds: number(60, 'machine'),
  solveMemoryMB: integer(1024, 'machine'),
  'codeLens.enabled': boolean(true, 'language-overridable'),
  math: oneOf(['auto', 'latex', 'text'], 'auto', 'window'),
  'model.provider': oneOf(['vscode', 'local', 'openai', 'none'], 'vscode', 'machine'),
  'model.path': string('', 'machine'),
  'model.fallback': oneOf(['none', 'openai', 'vscode'], 'none', 'machine'),
  'model.fallbackUrl': string('', 'machine'),
  'model.fallbackModel': string('', 'machine'),
  'openai.url': string('', 'machine'),
  'openai.model': string('default', 'machine'),
  'agent.maxToolSteps': integer(3, 'machine'),
  'agent.maxCallsPerTool': integer(2, 'machine'),
  'agent.maxOutputTokens': integer(2048, 'machine'),
  'index.include': strings([], 'resource'),
  'index.exclude': strings(['**/node_modules/**', '**/.git/**', '**/dist/**', '**/build/**', 'control-reports/**'], 'resource'),
  'embedder.path': string('', 'machine'),
  'embedder.mirror': string('', 'machine'),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K]['default'];

/** keys whose value may differ per folder or language: a read names the resource it is for */
export type ResourceSettingKey = { [K in SettingKey]: (typeof SETTINGS)[K]['scope'] extends 'resource' | 'language-overridable' ? K : never }[SettingKey];
export type MachineSettingKey = Exclude<SettingKey, ResourceSettingKey>;

/** a key or a group of keys (`model` covers `model.provider` and `model.path`) for change events */
export type SettingSection = SettingKey | (SettingKey extends infer K ? (K extends `${infer G}.${string}` ? G : never) : never);

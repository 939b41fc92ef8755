/**
 * Typed access to the `control.*` settings (the keys, types and defaults are in
 * settingsTable.ts). Machine- and window-scoped keys are read without a scope; a
 * resource- or language-scoped key is read for the resource it concerns (a document, a
 * workspace folder), which its caller must name.
 */
import * as vscode from 'vscode';
import {
  SECTION,
  SETTINGS,
  type MachineSettingKey,
  type ResourceSettingKey,
  type SettingKey,
  type SettingSection,
  type SettingValue,
} from './settingsTable.js';

export function setting<K extends MachineSettingKey>(key: K): SettingValue<K>;
export function setting<K extends ResourceSettingKey>(key: K, scope: vscode.ConfigurationScope | undefined): SettingValue<K>;
export function setting<K extends SettingKey>(key: K, scope?: vscode.ConfigurationScope): SettingValue<K> {
  return vscode.workspace.getConfiguration(SECTION, scope).get<SettingValue<K>>(key, SETTINGS[key].default);
}

/** writes a setting (the extension writes machine-wide choices: the model, the embedder) */
export function updateSetting<K extends SettingKey>(key: K, value: SettingValue<K> | undefined, target: vscode.ConfigurationTarget): Thenable<void> {
  return vscode.workspace.getConfiguration(SECTION).update(key, value, target);
}

/** whether a configuration change touches a setting or a group of them (`model`: model.*) */
export function affectsSetting(e: vscode.ConfigurationChangeEvent, section: SettingSection, scope?: vscode.ConfigurationScope): boolean {
  return e.affectsConfiguration(`${SECTION}.${section}`, scope);
}

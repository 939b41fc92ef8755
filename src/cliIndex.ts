// Placeholder entry of a CLI subcommand that is being written: says so plainly.
export async function main(_argv: string[]): Promise<number> {
  console.error('control: this subcommand is not available in this build yet.');
  return 2;
}

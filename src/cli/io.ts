/** What a CLI command reads and writes: the environment and two streams, given by bin/mailbox.js or a test. */
export interface CliIo {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Ends a command that runs until interrupted (`tail`); the process's signals do otherwise. */
  signal?: AbortSignal;
}

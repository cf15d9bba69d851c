/** A backup that cannot be made, or a file that cannot be restored: one line, with the file's line number where there is one. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

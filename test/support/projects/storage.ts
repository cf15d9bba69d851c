import { forbidChildProcesses } from './guards.js';

/** The setup of the storage project: SQLite and PostgreSQL, but no browser and no child process. */
forbidChildProcesses('storage');

import { forbidChildProcesses, forbidDatabases } from './guards.js';

/** The setup of the unit project: no database, no browser, no child process. */
forbidDatabases('unit');
forbidChildProcesses('unit');

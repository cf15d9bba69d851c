import { forbidChildProcesses, isChromium } from './guards.js';

/** The setup of the browser project: databases and Chromium, but no other child process. */
forbidChildProcesses('browser', isChromium);

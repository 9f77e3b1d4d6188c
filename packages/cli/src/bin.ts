#!/usr/bin/env node
import { main } from './main.js';

const code = await main(process.argv);
// The managed embedding server is a detached process; nothing else should keep the CLI alive.
process.exit(code);

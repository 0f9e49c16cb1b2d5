// The reset command of app.json: puts the store back in its seeded state.
import { writeStore } from './store.mjs';
writeStore({ title: 'Untitled' });

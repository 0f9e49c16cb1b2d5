// Runs the dispatcher against another verbs table: dispatch-with.ts TABLE VERB [ARGS…]
import { dispatch } from '../../pipeline/cli/dispatch.ts';

const [table, ...argv] = process.argv.slice(2);
await dispatch(argv, table);

// Fails at start the way a broken install does: it imports a module that is not there (Node exits 1).
import 'rstackbench-no-such-module';

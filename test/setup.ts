// The operator's allowances for the stand-ins the tests start (shared with the browser tests' config).
import './operator-setup';
import { installSubscriptions } from '../src-main/runtime/subscriptions';

// Every process of the product subscribes its orchestration folders to the store's domain events before it writes
// (src-main/runtime/data-dir.ts); a test process does the same, so store functions behave as they do in production.
installSubscriptions();

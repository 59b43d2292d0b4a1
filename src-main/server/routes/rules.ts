import type { FastifyInstance } from 'fastify';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import type { RuleDef } from '../../../src-shared/domain/rules';
import { dryRunRules, runRules } from '../../rules/apply';
import { categorySuggestions, detectAndSaveRecurring, lintRules, ruleSuggestions, similarTo } from '../../rules/insights';
import type { Db } from '../../store/db';
import { listRecurringSeries } from '../../store/rules/recurring';
import { checkRule, createRule, deleteRule, getRule, listRules, toRuleDef, updateRule } from '../../store/rules/rules';
import { listRuleFailures } from '../../store/rules/run-results';
import { registerRoute } from '../route';

export async function ruleRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, ruleRoutes.list, ({ auth }) => ({ data: listRules(db, auth.teamId) }));
  registerRoute(app, ruleRoutes.create, ({ auth, body }) => createRule(db, auth.teamId, body));
  registerRoute(app, ruleRoutes.dryRun, ({ auth, body }) => {
    const { rule, ruleId, limit, ...scope } = body;
    let rules: RuleDef[] | undefined;
    if (rule) {
      const def: RuleDef = {
        id: 'preview',
        name: rule.name,
        stage: rule.stage,
        enabled: true,
        conditions: rule.conditions as RuleDef['conditions'],
        actions: rule.actions as RuleDef['actions'],
      };
      checkRule(db, auth.teamId, def);
      rules = [def];
    } else if (ruleId) rules = [{ ...toRuleDef(getRule(db, auth.teamId, ruleId)), enabled: true }];
    return dryRunRules(db, auth.teamId, scope, rules, limit);
  });
  registerRoute(app, ruleRoutes.lint, ({ auth }) => lintRules(db, auth.teamId));
  registerRoute(app, ruleRoutes.suggestions, ({ auth }) => ({ data: ruleSuggestions(db, auth.teamId) }));
  registerRoute(app, ruleRoutes.categorySuggestions, ({ auth, query }) => ({
    data: categorySuggestions(db, auth.teamId, query.ids),
  }));
  registerRoute(app, ruleRoutes.similar, ({ auth, query }) => similarTo(db, auth.teamId, query.transactionId));
  registerRoute(app, ruleRoutes.get, ({ auth, params }) => getRule(db, auth.teamId, params.id));
  registerRoute(app, ruleRoutes.update, ({ auth, params, body }) => updateRule(db, auth.teamId, params.id, body));
  registerRoute(app, ruleRoutes.delete, ({ auth, params }) => deleteRule(db, auth.teamId, params.id));
  registerRoute(app, ruleRoutes.run, ({ auth, params, body }) => {
    const { limit, ...scope } = body;
    // A run on demand runs the rule even when disabled for automatic runs: the person asked for it.
    return runRules(db, auth.teamId, scope, [{ ...toRuleDef(getRule(db, auth.teamId, params.id)), enabled: true }], limit);
  });
  registerRoute(app, ruleRoutes.failures, ({ auth, params }) => ({ data: listRuleFailures(db, auth.teamId, params.id) }));
  registerRoute(app, ruleRoutes.recurring, ({ auth }) => ({ data: listRecurringSeries(db, auth.teamId) }));
  registerRoute(app, ruleRoutes.detectRecurring, ({ auth }) => detectAndSaveRecurring(db, auth.teamId));
}

import { canonicalHost } from './allowance';

/**
 * Whether a server-wide secret from the environment may go to a host (docs/decisions/0176-operator-versus-team.md):
 * `$FINOPS_REMOTE_TOKEN` and `$FINOPS_SMTP_PASSWORD` are the operator's, never a team's to send where it likes. Each
 * is used only for the one host the operator bound it to (`$FINOPS_REMOTE_TOKEN_HOST`, `$FINOPS_SMTP_HOST`: a host
 * name, `host:port`, or for the remote also an origin `https://sync.example.com`), or — with no binding — only by a
 * data dir that holds a single team (whose owner then is the operator's only tenant).
 */
export type SecretUse = { use: true } | { use: false; reason: string };

export interface SecretTarget {
  host: string;
  port: number;
  /** The scheme's own port (an unbound port in the binding means this one). */
  defaultPort: number;
  /** `https://host:port` for an HTTP target (an origin binding is compared with it). */
  origin?: string;
}

function bindingMatches(binding: string, target: SecretTarget): boolean {
  const b = binding.trim();
  if (b.includes('://')) {
    try {
      return target.origin !== undefined && new URL(b).origin === target.origin;
    } catch {
      return false;
    }
  }
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(b);
  if (!m) return false;
  const port = m[2] === undefined ? target.defaultPort : Number(m[2]);
  return canonicalHost(m[1]!.replace(/^\[|\]$/g, '')) === canonicalHost(target.host) && port === target.port;
}

/** Whether the secret named `secretEnv`, bound by `bindingEnv`, may be used for `target`. */
export function environmentSecretUse(
  env: NodeJS.ProcessEnv,
  names: { secret: string; binding: string },
  target: SecretTarget,
  singleTeam: boolean,
): SecretUse {
  const binding = env[names.binding]?.trim();
  if (binding) {
    return bindingMatches(binding, target)
      ? { use: true }
      : {
          use: false,
          reason: `$${names.secret} is bound to ${binding} ($${names.binding}), not to ${target.host}:${target.port}`,
        };
  }
  return singleTeam
    ? { use: true }
    : {
        use: false,
        reason: `$${names.secret} serves only a data dir of one team unless $${names.binding} binds it to one host`,
      };
}

/** The target of an HTTP URL. */
export function httpTarget(url: string): SecretTarget {
  const u = new URL(url);
  const defaultPort = u.protocol === 'https:' ? 443 : 80;
  return { host: u.hostname, port: u.port ? Number(u.port) : defaultPort, defaultPort, origin: u.origin };
}

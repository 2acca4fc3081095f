/**
 * Configuration: reading and validating {@code tollgate.*} properties into typed settings ({@link
 * dev.tollgate.internal.config.SettingsReader}, a reader per scope over the registry of settings, {@code Setting}, and {@link
 * dev.tollgate.internal.config.TollgateSettings}), the one reader of
 * each annotation ({@link dev.tollgate.internal.config.RateLimitedMethods}, {@link dev.tollgate.internal.config.LockSpecs}) and
 * the deployment check that reports every problem together ({@link dev.tollgate.internal.config.DeploymentCheck}).
 *
 * <p>Uses the API and the plain packages below it ({@code core}, {@code http}, {@code redis}, {@code
 * guard}, {@code ratelimit}, {@code lock}); no framework: properties come through {@link
 * dev.tollgate.internal.config.PropertySource}. Internal: plain Java configures through
 * {@link dev.tollgate.engine.Tollgate} and the typed values of the API ({@code Limit}, {@code
 * ConcurrencyLimit}, {@code JobLock}).
 */
package dev.tollgate.internal.config;

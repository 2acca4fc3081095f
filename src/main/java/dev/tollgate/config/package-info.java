/**
 * Configuration: reading and validating {@code tollgate.*} properties into typed settings ({@link
 * dev.tollgate.config.SettingsReader}, {@link dev.tollgate.config.TollgateSettings}), the one reader of
 * each annotation ({@link dev.tollgate.config.RateLimitedMethods}, {@link dev.tollgate.config.LockSpecs}) and
 * the deployment check that reports every problem together ({@link dev.tollgate.config.DeploymentCheck}).
 *
 * <p>Uses the API and the plain packages below it ({@code core}, {@code http}, {@code redis}, {@code
 * guard}, {@code ratelimit}, {@code lock}); no framework: properties come through {@link
 * dev.tollgate.config.PropertySource}. Internal, but for {@code SettingsReader.read}, {@code
 * PropertySource.of} and {@code TollgateSettings} (API, to build {@code engine.Tollgate}).
 */
package dev.tollgate.config;

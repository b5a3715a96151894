/// The environment a function process starts with, composed the way Lambda composes it:
/// Lambda's own variables, then the template's, then `--env-vars` overrides. The variables the
/// runtime depends on (`AWS_LAMBDA_RUNTIME_API`, `_HANDLER`, ...) cannot be overridden.
public enum LambdaEnvironment {
    /// Variables taken from the `host` environment when set (credentials and region, as SAM
    /// passes them), so a function can reach AWS services from a local run.
    static let passedThrough = [
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION",
    ]

    /// The credentials a function gets unless the host's are passed on: shaped like real ones,
    /// so an AWS client starts, and good for nothing, so a local run never acts on an account.
    public static let localCredentials = [
        "AWS_ACCESS_KEY_ID": "AKIAGATEHOUSELOCAL00",
        "AWS_SECRET_ACCESS_KEY": "gatehouse-local-credentials-reach-no-aws-account",
        "AWS_SESSION_TOKEN": "gatehouse-local",
    ]

    /// What of the emulator's own environment reaches functions (the `host` of `make`): the
    /// region always, the AWS credentials only when `passingCredentials` (`--pass-aws-env`).
    public static func host(_ environment: [String: String], passingCredentials: Bool) -> [String: String] {
        guard !passingCredentials else { return environment }
        return environment.filter { $0.key == "AWS_REGION" || $0.key == "AWS_DEFAULT_REGION" }
    }

    /// The full environment of one function instance.
    public static func make(
        function: FunctionDefinition,
        runtimeAPI: String,
        taskRoot: String,
        host: [String: String],
        defaults: [String: String] = [:],
        template: [String: String]? = nil,
        overrides: [String: String] = [:]
    ) -> [String: String] {
        var environment: [String: String] = [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "en_US.UTF-8",
            "TZ": ":UTC",
            // As Lambda has it, the task root's lib/ is searched: where a package bundles libraries.
            "LD_LIBRARY_PATH": "\(taskRoot):\(taskRoot)/lib",
            "AWS_REGION": "us-east-1",
            "AWS_DEFAULT_REGION": "us-east-1",
        ]
        environment.merge(localCredentials, uniquingKeysWith: { _, local in local })
        for name in passedThrough {
            if let value = host[name] { environment[name] = value }
        }
        environment.merge(defaults, uniquingKeysWith: { _, new in new })
        environment.merge(template ?? function.environment, uniquingKeysWith: { _, new in new })
        environment.merge(overrides, uniquingKeysWith: { _, new in new })
        let reserved: [String: String] = [
            "AWS_LAMBDA_RUNTIME_API": runtimeAPI,
            "AWS_LAMBDA_FUNCTION_NAME": function.name,
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": String(function.memorySize),
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_INITIALIZATION_TYPE": "on-demand",
            "AWS_LAMBDA_LOG_GROUP_NAME": "/aws/lambda/\(function.name)",
            "AWS_LAMBDA_LOG_STREAM_NAME": "$LATEST",
            "_HANDLER": function.handler,
            "LAMBDA_TASK_ROOT": taskRoot,
            "LAMBDA_RUNTIME_DIR": taskRoot,
        ]
        environment.merge(reserved, uniquingKeysWith: { _, new in new })
        return environment
    }
}

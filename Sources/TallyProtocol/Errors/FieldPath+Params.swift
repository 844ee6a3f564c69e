import TallyJSONCoding

extension FieldPath {
    /// The `params` object of a request: where the path of every `invalid_params` error starts.
    public static let params: FieldPath = "params"
}

extension SystemDescribe.Method {
    /// `method`'s entry, its schema ids from its name.
    public init<M: TallyMethod>(_ method: M.Type) {
        self.init(name: M.name, paramsSchema: M.paramsSchemaID, resultSchema: M.resultSchemaID)
    }
}

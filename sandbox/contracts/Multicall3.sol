// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Multicall3-compatible batcher of the provider sandbox
/// @notice Same function signatures as the Multicall3 deployed on public chains, so viem, wagmi and
/// ethers batch reads through it unchanged. Written for the sandbox; stateless, so it is installed
/// at the canonical address 0xcA11bde05977b3631167028862bE2a173976CA11 as runtime code.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate(Call[] calldata calls) external payable returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(success, "Multicall3: call failed");
            returnData[i] = data;
        }
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(success || !requireSuccess, "Multicall3: call failed");
            results[i] = Result(success, data);
        }
    }

    function tryBlockAndAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory results)
    {
        blockNumber = block.number;
        blockHash = blockhash(block.number);
        results = tryAggregate(requireSuccess, calls);
    }

    function blockAndAggregate(Call[] calldata calls)
        external
        payable
        returns (uint256 blockNumber, bytes32 blockHash, Result[] memory results)
    {
        return tryBlockAndAggregate(true, calls);
    }

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "Multicall3: call failed");
            results[i] = Result(success, data);
        }
    }

    function aggregate3Value(Call3Value[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        uint256 total;
        for (uint256 i; i < calls.length; i++) {
            total += calls[i].value;
            (bool success, bytes memory data) = calls[i].target.call{value: calls[i].value}(calls[i].callData);
            require(success || calls[i].allowFailure, "Multicall3: call failed");
            results[i] = Result(success, data);
        }
        require(msg.value == total, "Multicall3: value mismatch");
    }

    function getBlockHash(uint256 blockNumber) external view returns (bytes32) {
        return blockhash(blockNumber);
    }

    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }

    function getCurrentBlockCoinbase() external view returns (address) {
        return block.coinbase;
    }

    function getCurrentBlockDifficulty() external view returns (uint256) {
        return block.prevrandao;
    }

    function getCurrentBlockGasLimit() external view returns (uint256) {
        return block.gaslimit;
    }

    function getCurrentBlockTimestamp() external view returns (uint256) {
        return block.timestamp;
    }

    function getEthBalance(address account) external view returns (uint256) {
        return account.balance;
    }

    function getLastBlockHash() external view returns (bytes32) {
        unchecked {
            return blockhash(block.number - 1);
        }
    }

    function getBasefee() external view returns (uint256) {
        return block.basefee;
    }

    function getChainId() external view returns (uint256) {
        return block.chainid;
    }
}
